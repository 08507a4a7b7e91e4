/**
 * The methods a 2026-07-28 request may call, served statelessly over the same catalogue, dispatcher
 * (admission, approval policy, audit observers) and content source as the session revisions. Every
 * result carries `resultType` and the server's identity in `_meta`; lists and reads carry cache hints.
 * Methods the revision removed (initialize, ping, logging/setLevel, resources/subscribe and
 * unsubscribe) are unknown here, as the spec asks.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ANSWER_BY_KIND, isJunctionError, JunctionError, type AgentScope, type ToolOutcome } from '../../contracts/index.js';
import { SessionLogLevel } from '../agent-requests.js';
import type { ContentSource } from '../content-source.js';
import type { McpServedParts } from '../server.js';
import type { CacheHints } from './cache-hints.js';
import { ALL_VERSIONS, META, statelessAgentLabel, type ModernRequest } from './envelope.js';
import type { CallOwner, InputRequiredCalls } from './input-required.js';
import { checkParamHeaders } from './param-headers.js';

export interface ModernMethodDeps extends McpServedParts {
  cache: CacheHints;
  calls: InputRequiredCalls;
}

/** What a method may send before its result: request-scoped notifications (progress, log lines). */
export interface RequestChannel {
  notify(method: string, params: Record<string, unknown>): void;
  /** Aborts when the agent closes the response stream (the revision's cancellation). */
  signal: AbortSignal;
}

/** A JSON-RPC error a method answers with; `data` goes out as given. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A result already serialised (a tool result reuses the JSON the dispatcher made for the audit trail). */
export class SerializedResult {
  constructor(readonly json: string) {}
}

type Method = (request: ModernRequest, scope: AgentScope, channel: RequestChannel) => Promise<Record<string, unknown> | SerializedResult>;
export type ModernMethods = ReadonlyMap<string, Method>;

const ToolCallParams = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  inputResponses: z.unknown().optional(),
  requestState: z.string().optional(),
});
const PromptParams = z.looseObject({ name: z.string(), arguments: z.record(z.string(), z.string()).optional() });
const UriParams = z.looseObject({ uri: z.string() });
const CompleteParams = z.looseObject({
  ref: z.union([z.looseObject({ type: z.literal('ref/prompt'), name: z.string() }), z.looseObject({ type: z.literal('ref/resource'), uri: z.string() })]),
  argument: z.looseObject({ name: z.string(), value: z.string() }),
  context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});

function parse<T>(schema: z.ZodType<T>, params: unknown, method: string): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).join('; ');
  throw new JunctionError('InvalidArguments', `Invalid params for ${method}: ${issues}`);
}

/** The capabilities server/discover advertises, which are the methods this table serves. */
function capabilities(content: ContentSource | undefined): Record<string, unknown> {
  return {
    tools: { listChanged: true },
    ...(content ? { prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, completions: {} } : {}),
  };
}

export function createModernMethods(deps: ModernMethodDeps): ModernMethods {
  const { catalogue, dispatcher, content, cache, calls } = deps;
  const serverMeta = { [META.serverInfo]: { name: deps.name, version: deps.version } };
  const complete = (result: Record<string, unknown>) => ({ ...result, resultType: 'complete', _meta: serverMeta });

  const completeTail = `"resultType":"complete","_meta":${JSON.stringify(serverMeta)}}`;
  const toolAnswer = (unknownTool: boolean, outcome: ToolOutcome): Record<string, unknown> | SerializedResult => {
    // The spec makes an unknown tool a protocol error, not a tool result (as the session revisions do).
    if (unknownTool && outcome.error) {
      const { kind, pluginStatus: _status, ...error } = outcome.error;
      throw new JsonRpcError(ANSWER_BY_KIND[kind].jsonRpc, error.message, error);
    }
    const { result, resultJson } = outcome;
    // Spliced into the JSON the dispatcher already made, unless the result has keys of its own there.
    if (resultJson?.startsWith('{') && !('_meta' in result) && !('resultType' in result)) {
      return new SerializedResult(resultJson === '{}' ? `{${completeTail}` : `${resultJson.slice(0, -1)},${completeTail}`);
    }
    return complete(result as Record<string, unknown>);
  };

  const callTool: Method = async (request, scope, channel) => {
    const params = parse(ToolCallParams, request.params, 'tools/call');
    const client = request.clientInfo;
    const owner: CallOwner = { tool: params.name, key: `${scope.pin ?? ''}\n${client?.name ?? ''}` };
    const entry = catalogue.resolve(params.name, scope);
    if (entry) checkParamHeaders(entry.descriptor.inputSchema, params.arguments ?? {}, request.paramHeaders);
    const meta = request.params['_meta'] as Record<string, unknown>;
    const progressToken = meta['progressToken'];
    const logLevel = new SessionLogLevel();
    if (request.logLevel) logLevel.set(request.logLevel);
    const step =
      params.requestState !== undefined
        ? await calls.resume(owner, params.requestState, params.inputResponses, channel.signal)
        : await calls.start(owner, request.capabilities, channel.signal, (requests, signal) =>
            dispatcher.call({
              name: params.name,
              args: params.arguments ?? {},
              agent: statelessAgentLabel(request),
              agentName: client?.name ?? 'unknown',
              // A stateless agent has no session; "allow for this session" covers its later requests on this route.
              session: `mcp-stateless:${owner.key}`,
              transport: 'mcp-http',
              signal,
              scope,
              traceparent: meta['traceparent'],
              agentRequests: {
                ...requests,
                // The spec sends no log line for a request that did not set a level.
                log: (level, data, logger) => {
                  if (request.logLevel && logLevel.allows(level)) channel.notify('notifications/message', { level, data, ...(logger ? { logger } : {}) });
                },
              },
              ...(typeof progressToken === 'string' || typeof progressToken === 'number'
                ? { progress: (update: { progress: number; total?: number; message?: string }) => channel.notify('notifications/progress', { progressToken, ...update }) }
                : {}),
            }),
          );
    if (step.kind === 'input') return { resultType: 'input_required', inputRequests: step.inputRequests, requestState: step.requestState, _meta: serverMeta };
    if (step.kind === 'missingCapability') {
      const names = Object.keys(step.capabilities).join(', ');
      throw new JunctionError('MissingRequiredClientCapability', `The tool '${params.name}' needs the ${names} capability, which this request's client capabilities do not declare.`, {
        details: { requiredCapabilities: step.capabilities },
      });
    }
    // The dispatcher says unknown too when the tool was hidden while the call was held.
    return toolAnswer(entry === undefined || step.outcome.unknownTool === true, step.outcome);
  };

  const methods = new Map<string, Method>([
    [
      'server/discover',
      async () =>
        complete({
          supportedVersions: [...ALL_VERSIONS],
          capabilities: capabilities(content),
          ...(deps.instructions ? { instructions: deps.instructions } : {}),
        }),
    ],
    ['tools/list', async (_request, scope) => complete({ tools: catalogue.listTools(scope), ...cache.list() })],
    ['tools/call', callTool],
  ]);
  if (content) {
    methods.set('prompts/list', async (_r, scope) => complete({ ...(await content.listPrompts(scope)), ...cache.list() }));
    methods.set('prompts/get', async (request, scope) => {
      const params = parse(PromptParams, request.params, 'prompts/get');
      return complete({ ...(await content.getPrompt(params.name, params.arguments ?? {}, scope)) });
    });
    methods.set('resources/list', async (_r, scope) => complete({ ...(await content.listResources(scope)), ...cache.list() }));
    methods.set('resources/templates/list', async (_r, scope) => complete({ ...(await content.listResourceTemplates(scope)), ...cache.list() }));
    methods.set('resources/read', async (request, scope) => {
      const params = parse(UriParams, request.params, 'resources/read');
      try {
        return complete({ ...(await content.readResource(params.uri, scope)), ...cache.read() });
      } catch (error) {
        // The revision asks for the unknown URI in the error's data.
        if (isJunctionError(error) && error.code === 'ResourceNotFound') throw new JunctionError(error.code, error.message, { details: { ...error.details, uri: params.uri }, ...(error.next ? { next: error.next } : {}) });
        throw error;
      }
    });
    methods.set('completion/complete', async (request, scope) => {
      const params = parse(CompleteParams, request.params, 'completion/complete');
      return complete({ completion: await content.complete(params as Parameters<ContentSource['complete']>[0], scope) });
    });
  }
  return methods;
}

/** An SDK McpError as the JSON-RPC error it stands for (content sources may throw them). */
export function fromMcpError(error: unknown): JsonRpcError | undefined {
  return error instanceof McpError ? new JsonRpcError(error.code, error.message.replace(`MCP error ${error.code}: `, ''), error.data) : undefined;
}
