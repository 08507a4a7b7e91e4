/**
 * The methods a 2026-07-28 request may call, served statelessly over the same catalogue, dispatcher
 * (admission, approval policy, audit observers) and content source as the session revisions. Every
 * result carries `resultType` and the server's identity in `_meta`; lists and reads carry cache hints.
 * Methods the revision removed (initialize, ping, logging/setLevel, resources/subscribe and
 * unsubscribe) are unknown here, as the spec asks.
 */
import { z } from 'zod';
import { ANSWER_BY_KIND, isJunctionError, JunctionError, type AgentRequestContext, type AgentScope, type JsonText, type OutcomeError, type ToolOutcome } from '../../contracts/index.js';
import { replaceEnd, textStartsWith } from '../../shared/index.js';
import { SessionLogLevel } from '../agent-requests.js';
import type { ContentSource } from '../content-source.js';
import type { DispatchRequest } from '../dispatcher.js';
import type { McpServedParts } from '../sessions.js';
import type { CacheHints } from './cache-hints.js';
import { ALL_VERSIONS, META, type ModernRequest } from './envelope.js';
import type { CallOwner, CallStart, CallStep, InputRequiredCalls, ParkedCall } from './input-required.js';
import { checkParamHeaders } from './param-headers.js';
import { errorAnswer, JsonRpcError } from './rpc-errors.js';
import { TASKS_EXTENSION, type TaskEnding, type TaskStore } from './tasks.js';

export interface ModernMethodDeps extends McpServedParts {
  cache: CacheHints;
  calls: InputRequiredCalls;
  tasks: TaskStore;
}

const TASKS_REQUIRED = { extensions: { [TASKS_EXTENSION]: {} } };

function missingCapability(message: string, requiredCapabilities: Record<string, unknown>): JunctionError {
  return new JunctionError('MissingRequiredClientCapability', message, { details: { requiredCapabilities } });
}

/** A tool outcome's error as the JSON-RPC error a request answers it with (the error table's code, the error as data). */
function outcomeRpcError(outcomeError: OutcomeError): JsonRpcError {
  const { kind, pluginStatus: _status, ...error } = outcomeError;
  return new JsonRpcError(ANSWER_BY_KIND[kind].jsonRpc, error.message, error);
}

function declaresTasks(request: ModernRequest): boolean {
  return request.capabilities.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** Who may resume a parked call or read a task: the route's pin and the agent's name the request came with. */
function ownerOf(scope: AgentScope, request: ModernRequest, subject = ''): CallOwner {
  return { subject, key: `${scope.pin ?? ''}\n${request.clientInfo?.name ?? ''}` };
}

/** What a method may send before its result: request-scoped notifications (progress, log lines). */
export interface RequestChannel {
  notify(method: string, params: Record<string, unknown>): void;
  /** Aborts when the agent closes the response stream (the revision's cancellation). */
  signal: AbortSignal;
}

/** A result already serialised (a tool result reuses the JSON the dispatcher made for the audit trail). */
export class SerializedResult {
  constructor(readonly json: JsonText) {}
}

type Method = (request: ModernRequest, scope: AgentScope, channel: RequestChannel) => Promise<Record<string, unknown> | SerializedResult>;
export type ModernMethods = ReadonlyMap<string, Method>;

/** What a retry of a request that needed input adds to its params (tools/call, prompts/get, resources/read). */
const retryFields = { inputResponses: z.unknown().optional(), requestState: z.string().optional() };
const ToolCallParams = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  ...retryFields,
});
const PromptParams = z.looseObject({ name: z.string(), arguments: z.record(z.string(), z.string()).optional(), ...retryFields });
const UriParams = z.looseObject({ uri: z.string(), ...retryFields });
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * tools/call params, used as sent when ToolCallParams accepts them as they stand (a string name, an
 * object of arguments and a string requestState where present), as nearly every call's are; anything
 * else is parsed by the schema, which words the refusal.
 */
function toolCallParams(params: Record<string, unknown>): z.infer<typeof ToolCallParams> {
  const args = params['arguments'];
  const state = params['requestState'];
  if (typeof params['name'] === 'string' && (args === undefined || isObject(args)) && (state === undefined || typeof state === 'string')) return params as z.infer<typeof ToolCallParams>;
  return parse(ToolCallParams, params, 'tools/call');
}

/** What a call that ended without asking lacks: nothing. */
const NONE_MISSING: ReadonlySet<string> = new Set();

/** A tool call's outcome is a failure when its result is an error (after an undeclared capability was asked for, -32021). */
const toolFailed = (outcome: ToolOutcome): boolean => outcome.result.isError === true;

/** The capabilities server/discover advertises, which are the methods this table serves. */
function capabilities(content: ContentSource | undefined): Record<string, unknown> {
  return {
    tools: { listChanged: true },
    ...(content ? { prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, completions: {} } : {}),
    extensions: { [TASKS_EXTENSION]: {} },
  };
}

export function createModernMethods(deps: ModernMethodDeps): ModernMethods {
  const { catalogue, dispatcher, content, cache, calls, tasks } = deps;
  const serverMeta = { [META.serverInfo]: { name: deps.name, version: deps.version } };
  const complete = (result: Record<string, unknown>) => ({ ...result, resultType: 'complete', _meta: serverMeta });
  const inputRequired = (step: Extract<CallStep<unknown>, { kind: 'input' }>) => ({ resultType: 'input_required', inputRequests: step.inputRequests, requestState: step.requestState, _meta: serverMeta });

  const completeTail = `"resultType":"complete","_meta":${JSON.stringify(serverMeta)}}`;
  // Made once: what a result's JSON is spliced with, after its other keys and alone.
  const afterKeys = `,${completeTail}`;
  const alone = `{${completeTail}`;
  /**
   * What a finished call answers: its outcome, or the JSON-RPC error the spec asks for. An unknown tool
   * is a protocol error, not a tool result (as on the session revisions), and so is a call that failed
   * after its plugin asked for a capability the request did not declare.
   */
  const finishedOutcome = (tool: string, unknownTool: boolean, missing: ReadonlySet<string>, outcome: ToolOutcome): ToolOutcome => {
    if (missing.size > 0 && outcome.result.isError) {
      throw missingCapability(`The tool '${tool}' needs the ${[...missing].join(', ')} capability, which this request's client capabilities do not declare.`, Object.fromEntries([...missing].map((c) => [c, {}])));
    }
    if (unknownTool && outcome.error) throw outcomeRpcError(outcome.error);
    return outcome;
  };
  const toolAnswer = (outcome: ToolOutcome): Record<string, unknown> | SerializedResult => {
    const { result, resultJson } = outcome;
    // Spliced into the JSON the dispatcher already made, unless the result has keys of its own there.
    if (resultJson !== undefined && textStartsWith(resultJson, '{') && !('_meta' in result) && !('resultType' in result)) {
      return new SerializedResult(resultJson === '{}' ? alone : replaceEnd(resultJson, 1, afterKeys));
    }
    return complete(result as Record<string, unknown>);
  };
  /**
   * A task ends as the call would have answered had the agent waited: its result, or that JSON-RPC error.
   * But SEP-2663 keeps `failed` for protocol-level errors: a tool that reported its error completes with
   * `isError`, while a call whose plugin never gave the tool's answer (it disconnected mid-bake, ran out
   * of time, answered what cannot be read) fails the task with the error a plain call reports as a result.
   */
  const taskEnding =
    (tool: string, unknownTool: boolean, call: ParkedCall<ToolOutcome>) =>
    (outcome: ToolOutcome): TaskEnding => {
      try {
        const finished = finishedOutcome(tool, unknownTool || outcome.unknownTool === true, call.missing, outcome);
        if (finished.unanswered && finished.error) throw outcomeRpcError(finished.error);
        return { kind: 'result', result: finished.result as Record<string, unknown> };
      } catch (error) {
        return { kind: 'error', error: errorAnswer(error).error };
      }
    };

  const callTool: Method = async (request, scope, channel) => {
    const params = toolCallParams(request.params);
    const client = request.clientInfo;
    const owner = ownerOf(scope, request, `tools/call ${params.name}`);
    const entry = catalogue.resolve(params.name, scope);
    if (entry) checkParamHeaders(entry.descriptor.inputSchema, params.arguments ?? {}, request.paramHeaders);
    const takesTasks = declaresTasks(request);
    if (entry?.descriptor.execution?.taskSupport === 'required' && !takesTasks) {
      throw missingCapability(`The tool '${params.name}' runs only as a task; declare the ${TASKS_EXTENSION} extension in this request's client capabilities.`, TASKS_REQUIRED);
    }
    const meta = request.params['_meta'] as Record<string, unknown>;
    const progressToken = meta['progressToken'];
    // Progress and log lines travel on this request's response only; a task has none once it is answered.
    let answered = false;
    const notify = (method: string, params: Record<string, unknown>) => {
      if (!answered) channel.notify(method, params);
    };
    const started: CallStart<ToolOutcome> = { owner, capabilities: request.capabilities, takesTasks, inputResponses: params.inputResponses, failed: toolFailed };
    // The spec sends no log line for a request that did not set a level.
    if (request.logLevel) {
      const logLevel = new SessionLogLevel();
      logLevel.set(request.logLevel);
      started.log = (level, data, logger) => {
        if (logLevel.allows(level)) notify('notifications/message', { level, data, ...(logger ? { logger } : {}) });
      };
    }
    const step =
      params.requestState !== undefined
        ? await calls.resume<ToolOutcome>(owner, params.requestState, params.inputResponses, channel.signal)
        : await calls.start(started, channel.signal, (agentRequests, signal, parked) => {
            const dispatched: DispatchRequest = {
              name: params.name,
              args: params.arguments ?? {},
              agent: request.agentLabel,
              agentName: client?.name ?? 'unknown',
              // A stateless agent has no session; "allow for this session" covers its later requests on this route.
              session: `mcp-stateless:${owner.key}`,
              transport: 'mcp-http',
              signal,
              scope,
              traceparent: meta['traceparent'],
              agentRequests,
            };
            // Only a call the agent may follow as a task goes long or gets a task id.
            if (takesTasks) {
              dispatched.longRunning = parked.longRunning;
              dispatched.taskId = () => parked.taskId;
            }
            if (typeof progressToken === 'string' || typeof progressToken === 'number') dispatched.progress = (update) => notify('notifications/progress', { progressToken, ...update });
            return dispatcher.call(dispatched);
          });
    if (step.kind === 'input') return inputRequired(step);
    // The dispatcher says unknown too when the tool was hidden while the call was held.
    const unknownTool = entry === undefined;
    if (step.kind === 'long') {
      const created = tasks.create(step.call, step.message, taskEnding(params.name, unknownTool, step.call));
      if (created) {
        answered = true;
        return { resultType: 'task', ...created, _meta: serverMeta };
      }
      // Every place holds a running task: this call is answered when it ends, as without the extension.
      return toolAnswer(finishedOutcome(params.name, unknownTool || (await step.call.outcome).unknownTool === true, step.call.missing, await step.call.outcome));
    }
    if (step.kind === 'missingCapability') throw missingCapability(`The tool '${params.name}' needs the ${Object.keys(step.capabilities).join(', ')} capability, which this request's client capabilities do not declare.`, step.capabilities);
    return toolAnswer(finishedOutcome(params.name, unknownTool || step.outcome.unknownTool === true, NONE_MISSING, step.outcome));
  };

  /**
   * A prompts/get or resources/read whose plugin may ask the agent while serving it: served as a call
   * that can need input (the same rounds, sealed state and bounds as tools/call; never a task), its
   * result the method's own once it completes.
   */
  const askingRequest = async (
    request: ModernRequest,
    scope: AgentScope,
    channel: RequestChannel,
    subject: string,
    params: { inputResponses?: unknown; requestState?: string | undefined },
    run: (asking: AgentRequestContext) => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> => {
    const owner = ownerOf(scope, request, subject);
    const step =
      params.requestState !== undefined
        ? await calls.resume<Record<string, unknown>>(owner, params.requestState, params.inputResponses, channel.signal)
        : await calls.start({ owner, capabilities: request.capabilities, takesTasks: false, inputResponses: params.inputResponses, failed: () => false }, channel.signal, (agentRequests, signal) =>
            run({ agentRequests, signal }),
          );
    if (step.kind === 'input') return inputRequired(step);
    if (step.kind === 'missingCapability') throw missingCapability(`${subject} needs the ${Object.keys(step.capabilities).join(', ')} capability, which this request's client capabilities do not declare.`, step.capabilities);
    return complete(step.kind === 'long' ? await step.call.outcome : step.outcome);
  };

  /** tasks/*: only for requests that declare the extension (-32021 otherwise), and only the creator's tasks. */
  const taskMethod =
    (serve: (owner: CallOwner, params: Record<string, unknown>) => Record<string, unknown>): Method =>
    async (request, scope) => {
      if (!declaresTasks(request)) throw missingCapability(`${request.method} belongs to the ${TASKS_EXTENSION} extension, which this request's client capabilities do not declare.`, TASKS_REQUIRED);
      return complete(serve(ownerOf(scope, request), request.params));
    };

  const methods = new Map<string, Method>([
    [
      'server/discover',
      async () =>
        complete({
          supportedVersions: [...ALL_VERSIONS],
          capabilities: capabilities(content),
          ...(deps.instructions ? { instructions: deps.instructions } : {}),
          // DiscoverResult is cacheable like a list: it changes only with Junction's own capabilities.
          ...cache.list(),
        }),
    ],
    ['tools/list', async (_request, scope) => complete({ tools: catalogue.listTools(scope), ...cache.list() })],
    ['tools/call', callTool],
    ['tasks/get', taskMethod((owner, params) => tasks.get(owner, params['taskId']))],
    [
      'tasks/update',
      taskMethod((owner, params) => {
        tasks.update(owner, params['taskId'], params['inputResponses']);
        return {};
      }),
    ],
    [
      'tasks/cancel',
      taskMethod((owner, params) => {
        tasks.cancel(owner, params['taskId']);
        return {};
      }),
    ],
  ]);
  if (content) {
    methods.set('prompts/list', async (_r, scope) => complete({ ...(await content.listPrompts(scope)), ...cache.list() }));
    methods.set('prompts/get', async (request, scope, channel) => {
      const params = parse(PromptParams, request.params, 'prompts/get');
      return askingRequest(request, scope, channel, `prompts/get ${params.name}`, params, async (asking) => ({ ...(await content.getPrompt(params.name, params.arguments ?? {}, scope, asking)) }));
    });
    methods.set('resources/list', async (_r, scope) => complete({ ...(await content.listResources(scope)), ...cache.list() }));
    methods.set('resources/templates/list', async (_r, scope) => complete({ ...(await content.listResourceTemplates(scope)), ...cache.list() }));
    methods.set('resources/read', async (request, scope, channel) => {
      const params = parse(UriParams, request.params, 'resources/read');
      return askingRequest(request, scope, channel, `resources/read ${params.uri}`, params, async (asking) => {
        try {
          return { ...(await content.readResource(params.uri, scope, asking)), ...cache.read() };
        } catch (error) {
          // The revision asks for the unknown URI in the error's data.
          if (isJunctionError(error) && error.code === 'ResourceNotFound') throw new JunctionError(error.code, error.message, { details: { ...error.details, uri: params.uri }, ...(error.next ? { next: error.next } : {}) });
          throw error;
        }
      });
    });
    methods.set('completion/complete', async (request, scope) => {
      const params = parse(CompleteParams, request.params, 'completion/complete');
      return complete({ completion: await content.complete(params as Parameters<ContentSource['complete']>[0], scope) });
    });
  }
  return methods;
}
