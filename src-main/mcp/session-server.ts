/**
 * One agent session's SDK Server over the shared catalogue, dispatcher and content source: its request
 * handlers, logging level and resource subscriptions. The factory (server.ts) loads this module with
 * its first session, never at start; server.ts says why.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ANSWER_BY_KIND, isJunctionError, JunctionError, jsonRpcCodeOf } from '../contracts/index.js';
import type { AgentRequestContext, AgentScope, JsonText, ResourceSubscription, ToolDescriptor } from '../contracts/index.js';
import { agentRequestsFor, SessionLogLevel } from './agent-requests.js';
import type { SessionToolCall, ToolCallExtra } from './direct-tool-calls.js';
import { createSchemaValidator } from './schema-validator.js';
import type { AgentSessionInfo, BuildSessionServer, LiveSessions, McpServerDeps, SessionState } from './sessions.js';
import { passesAsItStands, withJson } from './tool-result-json.js';
import { errorMessage, textStartsWith } from '../shared/index.js';

/**
 * Tasks are served on 2026-07-28 only (the tasks extension); a session revision's `execution.taskSupport`
 * would tell its client to send 2025-11-25 task requests, which Junction does not serve, so it is left out.
 */
function withoutTaskSupport(tool: ToolDescriptor): ToolDescriptor {
  if (tool.execution === undefined) return tool;
  const { execution: _execution, ...rest } = tool;
  return rest;
}

/**
 * What a request handler throws to answer with a JSON-RPC error. The SDK sends `code`, `message` and
 * `data` of whatever is thrown; its own McpError puts "MCP error <code>: " into `message`, and the
 * client adds that prefix again when it reads the answer, so agents would see it twice.
 */
class JsonRpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** JSON-RPC errors for prompts/resources keep the structured code in `data`. */
function toJsonRpcFailure(error: unknown): JsonRpcFailure {
  if (error instanceof JsonRpcFailure) return error;
  if (error instanceof McpError) return new JsonRpcFailure(error.code, error.message.replace(`MCP error ${error.code}: `, ''), error.data);
  if (isJunctionError(error)) return new JsonRpcFailure(jsonRpcCodeOf(error), error.message, error.toStructured());
  return new JsonRpcFailure(ErrorCode.InternalError, errorMessage(error));
}

/**
 * tools/call is registered with this loose shape: the SDK checks a request against the registered
 * schema first and reports a mismatch as -32603 InternalError, while the tools/call check, which runs
 * next, answers -32602 InvalidParams, which is what a non-string tool name is.
 */
const LooseCallToolRequest = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/** What the SDK hands every request handler: the request's id, its cancellation and its related sends. */
type HandlerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The SDK's answer to a tools/call request or result its schema refuses, word for word. */
function invalidToolCall(what: 'request' | 'result', error: unknown): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid tools/call ${what}: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * What the SDK Server's own tools/call wrapper checks of a result, for a handler registered past it:
 * the result against CallToolResultSchema, whose parsed copy the transport would serialise again. A
 * result that schema passes as it stands goes out as the dispatcher's JSON of it (tool-result-json.ts);
 * any other is parsed as before.
 */
function answeredToolCall(handler: (request: CallToolRequest, extra: ToolCallExtra) => Promise<{ result: CallToolResult; resultJson?: JsonText }>): SessionToolCall {
  return async (request, extra) => {
    const { result, resultJson } = await handler(request, extra);
    if (resultJson !== undefined && textStartsWith(resultJson, '{') && passesAsItStands(result)) return { result, json: resultJson };
    const parsed = safeParse(CallToolResultSchema, result);
    if (!parsed.success) throw invalidToolCall('result', parsed.error);
    return { result: parsed.data, json: undefined };
  };
}

/**
 * The wrapper's request check, for the same handler registered on Protocol: the request against
 * CallToolRequestSchema. (The wrapper's task branch is never reached: the Server refuses a
 * task-augmented tools/call first, Junction declaring no task capability.) A session's transport
 * serves the requests that schema surely accepts without it (direct-tool-calls.ts).
 */
function checkedToolCall(answer: SessionToolCall) {
  return async (request: unknown, extra: HandlerExtra): Promise<CallToolResult> => {
    const validated = safeParse(CallToolRequestSchema, request);
    if (!validated.success) throw invalidToolCall('request', validated.error);
    // The handler gets the request as it came, as the SDK's wrapper gives it.
    const { result, json } = await answer(request as CallToolRequest, extra);
    return json === undefined ? result : withJson(result, json);
  };
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toJsonRpcFailure(error);
  }
}

/**
 * The builder of a factory's sessions. One validator serves them all: the SDK's default gives each
 * Server an ajv of its own (about 13 KB per session, used only to check elicitation answers).
 */
export function sessionServerBuilder(deps: McpServerDeps, maxSubscriptions: number, live: LiveSessions): BuildSessionServer {
  const jsonSchemaValidator = createSchemaValidator();
  return (transport, agentLabel, session) => {
    const content = deps.content;
    const server = new Server(
      { name: deps.name, version: deps.version },
      {
        capabilities: {
          tools: { listChanged: true },
          logging: {},
          ...(content ? { prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, completions: {} } : {}),
        },
        ...(deps.instructions ? { instructions: deps.instructions } : {}),
        jsonSchemaValidator,
      },
    );
    const agent = () => {
      const client = server.getClientVersion();
      return client ? `${client.name}/${client.version} ${agentLabel()}` : agentLabel();
    };
    // The key an "allow for this session" decision is stored under; one per server, so per agent session.
    const approvalSession = `${transport}:${randomUUID()}`;

    const scope = (): AgentScope => {
      const id = session?.id();
      return { ...(id !== undefined ? { sessionId: id } : {}), ...(session?.pin !== undefined ? { pin: session.pin } : {}), agentName: server.getClientVersion()?.name ?? 'unknown' };
    };
    let opened: AgentSessionInfo | undefined;
    server.oninitialized = () => {
      const sessionId = session?.id();
      if (sessionId === undefined || opened) return;
      const client = server.getClientVersion();
      opened = {
        sessionId,
        transport,
        ...(session?.pin !== undefined ? { pin: session.pin } : {}),
        ...(session?.protocolVersion !== undefined ? { protocolVersion: session.protocolVersion } : {}),
        client: client ? { name: client.name, version: client.version, title: client.title, description: client.description, websiteUrl: client.websiteUrl } : {},
      };
      deps.sessions?.opened(opened);
    };

    const logLevel = new SessionLogLevel();
    const answerToolCall = answeredToolCall(async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      const outcome = await deps.dispatcher.call({
        name: request.params.name,
        args: request.params.arguments ?? {},
        agent: agent(),
        agentName: server.getClientVersion()?.name ?? 'unknown',
        session: approvalSession,
        transport,
        signal: extra.signal,
        scope: scope(),
        traceparent: request.params._meta?.['traceparent'],
        agentRequests: agentRequestsFor({ server, relatedRequestId: extra.requestId, sendNotification: extra.sendNotification, logLevel }),
        ...(progressToken !== undefined
          ? {
              progress: (update) => {
                extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } }).catch(() => undefined);
              },
            }
          : {}),
      });
      // The spec makes an unknown tool a protocol error, not a tool result; /api keeps its 404. Only a
      // name the session's catalogue lacks is one; a tool may itself answer "not found" about its target.
      if (outcome.unknownTool && outcome.error) {
        const { kind, pluginStatus: _status, ...error } = outcome.error;
        throw new JsonRpcFailure(ANSWER_BY_KIND[kind].jsonRpc, error.message, error);
      }
      return outcome;
    });
    const state: SessionState = { server, scope, logLevel, subscriptions: new Map(), toolCall: answerToolCall };
    server.setRequestHandler(SetLevelRequestSchema, async (request) => {
      state.logLevel.set(request.params.level);
      return {};
    });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: deps.catalogue.listTools(scope()).map(withoutTaskSupport) }));
    Protocol.prototype.setRequestHandler.call(server, LooseCallToolRequest, checkedToolCall(answerToolCall));
    if (content) {
      server.setRequestHandler(ListPromptsRequestSchema, () => guarded(async () => content.listPrompts(scope())));
      // A plugin serving a prompt or a resource read may ask this session meanwhile, as a tool may.
      const asking = (extra: HandlerExtra): AgentRequestContext => ({
        agentRequests: agentRequestsFor({ server, relatedRequestId: extra.requestId, sendNotification: extra.sendNotification, logLevel: state.logLevel }),
        signal: extra.signal,
      });
      server.setRequestHandler(GetPromptRequestSchema, (request, extra) => guarded(() => content.getPrompt(request.params.name, request.params.arguments ?? {}, scope(), asking(extra))));
      server.setRequestHandler(ListResourcesRequestSchema, () => guarded(async () => content.listResources(scope())));
      server.setRequestHandler(ListResourceTemplatesRequestSchema, () => guarded(async () => content.listResourceTemplates(scope())));
      server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => guarded(() => content.readResource(request.params.uri, scope(), asking(extra))));
      server.setRequestHandler(CompleteRequestSchema, (request) => guarded(async () => ({ completion: await content.complete(request.params, scope()) })));
      server.setRequestHandler(SubscribeRequestSchema, (request) =>
        guarded(async () => {
          const { uri } = request.params;
          if (state.subscriptions.has(uri)) return {};
          if (state.subscriptions.size >= maxSubscriptions) {
            throw new JunctionError('SubscriptionLimit', `This session already holds ${maxSubscriptions} resource subscriptions; unsubscribe from one first.`, { details: { limit: maxSubscriptions } });
          }
          // Reserved before the owner answers, so concurrent subscribes cannot overrun the bound.
          const pending: ResourceSubscription = { topic: '', release: () => undefined };
          state.subscriptions.set(uri, pending);
          try {
            const subscription = await content.subscribe(uri, scope());
            // The session may have unsubscribed or ended while the owner was asked.
            if (state.subscriptions.get(uri) === pending && live.has(server)) state.subscriptions.set(uri, subscription);
            else subscription.release();
          } catch (error) {
            if (state.subscriptions.get(uri) === pending) state.subscriptions.delete(uri);
            throw error;
          }
          return {};
        }),
      );
      server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
        state.subscriptions.get(request.params.uri)?.release();
        state.subscriptions.delete(request.params.uri);
        return {};
      });
    }
    live.add(state);
    server.onclose = () => {
      live.end(state);
      deps.sessionClosed?.(approvalSession);
      if (opened) deps.sessions?.closed(opened);
      opened = undefined;
    };
    return server;
  };
}
