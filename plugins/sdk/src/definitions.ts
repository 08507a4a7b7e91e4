/** What a plugin author declares: tools, prompts and resources, and their wire descriptors. */
import { z } from 'zod';
import type {
  CompletionRef,
  ContentBlock,
  LogLevel,
  ResponseElicitation,
  ResponseRoots,
  ResponseSampling,
  ResponseListResource,
  ResponseListTool,
  ResponsePrompt,
  ResponseResourceContent,
  ResponseResourceTemplate,
  TaskSupport,
} from '../wire/index.js';

export type PluginRole = 'editor' | 'runtime';
export type ToolTarget = 'editor' | 'runtime' | 'both';

/** A JSON Schema whose root is an object schema. */
export type JsonObjectSchema = { type: 'object'; [key: string]: unknown };
export type ToolSchema = z.ZodObject | JsonObjectSchema;
export type ArgsOf<S extends ToolSchema> = S extends z.ZodObject ? z.output<S> : Record<string, unknown>;

/** What a handler may ask the agent whose request it serves. Each rejects with AgentRequestError. */
export interface AgentRequests {
  /**
   * Asks the agent's user (MCP elicitation). `requestedSchema` is a flat object schema of primitive
   * properties, as MCP requires.
   */
  elicit(message: string, requestedSchema: JsonObjectSchema, options?: AgentRequestOptions): Promise<ResponseElicitation>;
  /** Asks the agent's model (MCP sampling/createMessage params). */
  sample(params: SamplingParams, options?: AgentRequestOptions): Promise<ResponseSampling>;
  /** Asks the agent for its roots (MCP roots/list): the `file://` folders it works in. */
  listRoots(options?: AgentRequestOptions): Promise<ResponseRoots>;
}

/**
 * What a prompt handler or a resource read gets: the agent's request it serves, which it may ask the
 * agent meanwhile (a bridge with the `contentRequests` feature; CapabilityUnavailable elsewhere).
 */
export interface RequestContext extends AgentRequests {
  /** Aborted when the plugin's connection to the bridge drops. */
  signal: AbortSignal;
  requestId: string;
}

export interface ToolContext extends AgentRequests {
  /** Reports progress to the bridge (and on to the agent when it asked for progress). */
  progress(progress: number, total?: number, message?: string): void;
  /** A log line; during a call from an MCP agent it reaches that agent as notifications/message. */
  log(level: LogLevel, message: string, options?: { logger?: string; data?: unknown }): void;
  /** Aborted when the bridge cancels the call (deadline, agent gone) or the connection drops. */
  signal: AbortSignal;
  requestId: string;
  /**
   * Answers the bridge now that the call goes on in the background (McpPlugin's `Processing` reply,
   * with `message` as its text); the handler's result is sent when it returns. Call it where the long
   * part begins (a build, a domain reload): an agent that declared the tasks extension then gets a
   * task instead of waiting, others keep waiting for the result, for up to 5 minutes in all. Questions
   * asked before it (`elicit`, `sample`) reach a 2026-07-28 agent in the call's own round trips;
   * questions after it, through the task. Calling it again does nothing.
   */
  processing(message?: string): void;
  /**
   * The calling agent's W3C trace context (`00-<trace id>-<parent id>-<flags>`), when it sent a valid one:
   * start this tool's span under it to join the agent's trace.
   */
  traceparent?: string;
}

export interface AgentRequestOptions {
  /** Withdraws the request (the agent receives notifications/cancelled); the call's own cancellation always does. */
  signal?: AbortSignal;
  /**
   * The question's own name, which a 2026-07-28 agent answers it under (1–64 letters, digits, `_`, `.`,
   * `-`; one open question per key and call). Without one the bridge names it (`elicitation-N`…); the
   * session revisions key nothing, so there it changes nothing. A bad or reused key rejects with InvalidRequest.
   */
  key?: string;
}

export interface SamplingParams {
  messages: Array<{ role: 'user' | 'assistant'; content: ContentBlock }>;
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  [key: string]: unknown;
}

export interface CompletionRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}
export type CompletionReturn = string[] | { values: string[]; total?: number; hasMore?: boolean };
export type CompletionHandler = (request: CompletionRequest) => CompletionReturn | Promise<CompletionReturn>;

/** What a handler may return: text, a structured value, or an MCP-style result with explicit content. */
export type ToolReturn =
  | void
  | string
  | number
  | boolean
  | null
  | undefined
  | Record<string, unknown>
  | unknown[]
  | { content: ContentBlock[]; structuredContent?: Record<string, unknown>; isError?: boolean };

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<S extends ToolSchema = ToolSchema> {
  name: string;
  title?: string;
  description: string;
  input: S;
  output?: ToolSchema;
  /** Which builds publish the tool: an editor publishes `editor` and `both`, a runtime `runtime` and `both`. Default `both`. */
  target?: ToolTarget;
  annotations?: ToolAnnotations;
  /**
   * Whether an agent may run the tool as a task (MCP `execution.taskSupport`). `required`: an agent
   * that does not declare the tasks extension is refused (-32021). A call becomes a task when its
   * handler calls `ctx.processing()`; until then it is an ordinary call. Default: undeclared.
   */
  taskSupport?: TaskSupport;
  handler: (args: ArgsOf<S>, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;
}

/** A prompt message: text, or any MCP content block (image, audio, embedded resource). */
export type PromptMessageInput = { role: 'user' | 'assistant'; text: string } | { role: 'user' | 'assistant'; content: ContentBlock };

export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
  /** `ctx` may ask the agent that asked for the prompt (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`). */
  handler: (args: Record<string, string>, ctx: RequestContext) => string | PromptMessageInput[] | Promise<string | PromptMessageInput[]>;
}

export type ResourceReadResult = string | { text: string; mimeType?: string } | { blob: string; mimeType?: string };

export interface ResourceDefinition {
  /** A fixed URI, or an RFC 6570 level-1 template such as `scene://objects/{id}`. */
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  /** `ctx` may ask the agent that reads the resource. */
  read: (uri: string, ctx: RequestContext) => ResourceReadResult | Promise<ResourceReadResult>;
}

export function isZodSchema(schema: ToolSchema): schema is z.ZodObject {
  return '_zod' in schema;
}

/** The published JSON Schema of a tool input or output; the dialect marker is dropped, the keywords stay. */
export function jsonSchemaOf(schema: ToolSchema): Record<string, unknown> {
  if (!isZodSchema(schema)) return schema;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

export function publishedBy(target: ToolTarget | undefined, role: PluginRole): boolean {
  const t = target ?? 'both';
  return t === 'both' || t === role;
}

export function toolDescriptor(tool: ToolDefinition): ResponseListTool {
  return {
    name: tool.name,
    enabled: true,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input),
    outputSchema: tool.output ? jsonSchemaOf(tool.output) : undefined,
    readOnlyHint: tool.annotations?.readOnlyHint,
    destructiveHint: tool.annotations?.destructiveHint,
    idempotentHint: tool.annotations?.idempotentHint,
    openWorldHint: tool.annotations?.openWorldHint,
    ...(tool.taskSupport ? { taskSupport: tool.taskSupport } : {}),
  };
}

export function promptDescriptor(prompt: PromptDefinition): ResponsePrompt {
  return {
    name: prompt.name,
    enabled: true,
    title: prompt.title,
    description: prompt.description,
    arguments: prompt.arguments?.map((a) => ({ name: a.name, title: undefined, description: a.description, required: a.required })),
  };
}

export function isTemplate(resource: ResourceDefinition): boolean {
  return /\{[^}]+\}/.test(resource.uri);
}

export function resourceDescriptor(resource: ResourceDefinition): ResponseListResource {
  return { uri: resource.uri, name: resource.name, enabled: true, description: resource.description, mimeType: resource.mimeType, size: undefined };
}

export function templateDescriptor(resource: ResourceDefinition): ResponseResourceTemplate {
  return { uriTemplate: resource.uri, name: resource.name, enabled: true, description: resource.description, mimeType: resource.mimeType };
}

export function resourceContent(uri: string, fallbackMime: string | undefined, result: ResourceReadResult): ResponseResourceContent {
  if (typeof result === 'string') return { uri, mimeType: fallbackMime ?? 'text/plain', text: result, blob: undefined };
  if ('blob' in result) return { uri, mimeType: result.mimeType ?? fallbackMime, text: undefined, blob: result.blob };
  return { uri, mimeType: result.mimeType ?? fallbackMime ?? 'text/plain', text: result.text, blob: undefined };
}
