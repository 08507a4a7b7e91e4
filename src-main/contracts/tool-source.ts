/**
 * The contract between the rooms that own tools (host, bridge, in-process plugins) and the rooms that
 * expose them (mcp, the direct HTTP API). A source knows nothing about transports.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { classify, toStructuredError, type ClassifiedError, type StructuredError } from './errors.js';

/** Which agent session a listing or a call is for; the bridge picks the project from it. */
export interface AgentScope {
  /** The MCP session id (absent for direct HTTP calls, which have no session to remember a selection). */
  sessionId?: string;
  /** The project pin of the route the agent used, already validated and lower-cased. */
  pin?: string;
  /** The MCP client's name (`http` for /api); visibility rules match it as `agent`. */
  agentName?: string;
}

export type ToolDescriptor = Tool;
export type ToolResult = CallToolResult;

/** A failure as a tool outcome carries it: the structured error, its kind, and a status its plugin declared. */
export interface OutcomeError extends ClassifiedError {
  /**
   * An HTTP status the plugin chose itself, which the direct API answers as is with the message
   * unchanged: a pre-8.14 plugin's own HttpStatusCode or ErrorKind, as McpPlugin.Server forwards them.
   */
  pluginStatus?: number;
}

export interface ToolOutcome {
  result: ToolResult;
  /** Present exactly when `result.isError` is true; transports read the error here, never from the result. */
  error?: OutcomeError;
  /** The plugin connection that answered, for sources that route to one of several (the bridge). */
  servedBy?: { connectionId: string; name: string; role: 'editor' | 'runtime'; pluginVersion?: string };
  /** The result's JSON text, serialised once by the dispatcher to count its bytes; an answer that is exactly the result reuses it. */
  resultJson?: JsonText;
  /** The name is not in the caller's catalogue (unknown, or hidden from it): MCP answers a protocol error. */
  unknownTool?: true;
  /**
   * The plugin was invoked and never gave the tool's own answer: it disconnected, ran past its deadline,
   * or answered what the bridge cannot read. The failure is the bridge's to report, not the tool's, which
   * the tasks extension tells apart (a failed task, not a completed one with an error result).
   */
  unanswered?: true;
}

/**
 * A call's arguments and result as JSON text, serialised once by the dispatcher (or taken from the bytes
 * the transport received) for everything that keeps or counts them: byte sizes, the console's call
 * details, the audit trail. `result` is absent for a call that has none.
 */
export interface CallJson {
  arguments: JsonText;
  result?: JsonText;
}

/**
 * JSON text, whole or in pieces: the JSON of a value holding long strings (a screenshot's base64, a
 * file's text) may keep each of them as a piece of its own instead of copying it into one new string.
 * shared/json-text.ts builds and reads it; anything that needs the text whole asks it for a copy.
 */
export type JsonText = string | JsonPieces;

export interface JsonPieces {
  /** The JSON between long strings and the long strings, alternating: JSON, string, JSON, …, JSON. */
  readonly parts: readonly string[];
  /** What is known of each long string, in order. */
  readonly leaves: readonly JsonLeaf[];
}

export interface JsonLeaf {
  /** The key the string is the value of (undefined for an array element). */
  readonly key: string | undefined;
  /** The bytes it was decoded from, when they are ASCII and so exactly its UTF-8: written as they are. */
  readonly bytes?: Uint8Array;
}

/** `console`: the operator ran the tool, or replayed a recorded call, from the console. */
export type AgentTransport = 'mcp-http' | 'mcp-stdio' | 'http-api' | 'console';

export interface CallContext {
  /** Unique per call, used by the console and webhooks to correlate events. */
  callId: string;
  /** Who asked: an MCP session id or a remote address, for display and rate limits. */
  agent: string;
  /** The MCP client's name (`clientInfo.name`), `http` for direct HTTP calls; for display and audit. */
  agentName?: string;
  transport: AgentTransport;
  signal: AbortSignal;
  progress?: (update: { progress: number; total?: number; message?: string }) => void;
  /** Requests to the agent session that made the call (MCP related-request semantics); absent on /api. */
  agentRequests?: AgentRequests;
  /** The agent's session and route pin; sources serving several projects choose one from it. */
  scope?: AgentScope;
  /** The agent's W3C trace context (validated, version 00), passed on to whatever serves the call. */
  traceparent?: string;
  /**
   * Told when the source learns the call will run long (a plugin answered `Processing`, with its
   * message): a caller that can lets the agent stop waiting and follow the call as a task.
   */
  longRunning?: (message?: string) => void;
}

export type AgentLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export interface ElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

/** The agent's `roots/list` answer: the roots it exposes (`file://` URIs). */
export interface RootsAnswer {
  roots: Array<{ uri: string; name?: string }>;
}

/**
 * What a tool (or a plugin's prompt or resource handler) may ask of the agent while serving its request.
 * `key` is the asker's name for the question, which a 2026-07-28 agent answers under; revisions that key
 * nothing ignore it. Failures reject with a JunctionError: `CapabilityUnavailable` (the agent did not
 * declare the capability), `InvalidRequest` (outside the MCP schema, or a key already open),
 * `CallNotActive` (the call ended), `AgentRequestFailed` (the agent refused or errored).
 */
export interface AgentRequests {
  elicit(params: { message: string; requestedSchema: Record<string, unknown> }, signal: AbortSignal, key?: string): Promise<ElicitationAnswer>;
  /** `params` are `sampling/createMessage` params; resolves to the agent's CreateMessageResult. */
  sample(params: Record<string, unknown>, signal: AbortSignal, key?: string): Promise<Record<string, unknown>>;
  /** `roots/list`: the roots the agent exposes. */
  listRoots(signal: AbortSignal, key?: string): Promise<RootsAnswer>;
  /** A `notifications/message` on the call's stream, dropped below the session's logging/setLevel. */
  log(level: AgentLogLevel, data: unknown, logger?: string): void;
}

/**
 * A prompt get or resource read that may ask the agent who made it while a plugin serves it (MCP's
 * related requests on a session; input-required rounds for a 2026-07-28 request). `signal` ends when
 * the agent gives the request up.
 */
export interface AgentRequestContext {
  agentRequests: AgentRequests;
  signal: AbortSignal;
}
/** Who would serve a call, as far as its source can tell before running it (the approval policy matches on it). */
export type ToolTarget =
  | { source: 'host' }
  | { source: 'plugin'; plugin: string }
  | { source: 'bridge'; plugin?: string; project?: string; role?: 'editor' | 'runtime'; /** The plugin connection that would serve it; absent while none would (one is awaited). */ connection?: string };

export interface ToolSource {
  /** Stable id shown in diagnostics, e.g. `host`, `bridge`, `plugin:<id>`. */
  readonly id: string;
  /** `scope` is the asking agent's session; only sources serving several projects look at it. */
  listTools(scope?: AgentScope): readonly ToolDescriptor[];
  callTool(name: string, args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutcome>;
  /** Where a call of `name` by the agent in `scope` would go right now; sources that serve everything themselves may omit it (`host`). */
  targetOf?(name: string, scope?: AgentScope): ToolTarget;
  /** Fires whenever the result of listTools() may have changed. Returns an unsubscribe function. */
  onToolsChanged(listener: () => void): () => void;
  /**
   * Asked when no source publishes `name`: a better failure than ToolNotFound when the source knows why
   * (a pinned project whose editor is closed publishes nothing, yet the agent should hear which project).
   */
  explainMissing?(name: string, scope?: AgentScope): ToolOutcome | undefined;
}

const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' }, next: { type: 'object' }, details: { type: 'object' } },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
} as const;

/**
 * Keywords read from a schema document's root: a `$ref` such as `#/$defs/…` (which every McpPlugin
 * tool returning a value publishes) resolves against the root, so they stay there when the tool's
 * schema becomes one branch of the published alternative.
 */
const ROOT_KEYWORDS = ['$schema', '$defs', 'definitions'] as const;

/**
 * The descriptor as agents see it. MCP clients (the SDK's included) check `structuredContent` against
 * the output schema even on `isError` results, and every failure here carries `structuredContent.error`,
 * so a published output schema must admit the error envelope as an alternative.
 */
export function publishedDescriptor(descriptor: ToolDescriptor): ToolDescriptor {
  if (!descriptor.outputSchema) return descriptor;
  const branch: Record<string, unknown> = { ...descriptor.outputSchema };
  const root: Record<string, unknown> = {};
  for (const keyword of ROOT_KEYWORDS) {
    if (!(keyword in branch)) continue;
    root[keyword] = branch[keyword];
    delete branch[keyword];
  }
  return { ...descriptor, outputSchema: { type: 'object', ...root, anyOf: [branch, ERROR_ENVELOPE_SCHEMA] } };
}

/**
 * The one shape every tool failure takes: on the wire `isError` plus `structuredContent.error`, and
 * as data the same error with the kind its code implies.
 */
export function errorOutcome(error: StructuredError, pluginStatus?: number): ToolOutcome {
  return {
    error: { ...classify(error), ...(pluginStatus === undefined ? {} : { pluginStatus }) },
    result: {
      isError: true,
      content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
      structuredContent: { error: { ...error } },
    },
  };
}

/** Wraps a successful structured value; the text block mirrors it for clients that ignore structuredContent. */
export function successOutcome(value: Record<string, unknown>): ToolOutcome {
  return {
    result: {
      content: [{ type: 'text', text: JSON.stringify(value) }],
      structuredContent: value,
    },
  };
}

/** Maps an unexpected thrown value to an outcome; JunctionErrors keep their code. */
export function thrownOutcome(value: unknown): ToolOutcome {
  return errorOutcome(toStructuredError(value));
}
