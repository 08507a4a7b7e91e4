/**
 * MCP extension 1 on the hub: a plugin's elicitation, sampling and roots requests go to the agent
 * session of the call they belong to (and only while that call, prompt get or resource read runs, on
 * the connection that serves it); log lines of a call go to its session, other log lines to every
 * session; resource updates fan out to subscribers. Every refusal is an envelope with a stable
 * `code`, a request the contract's schema refuses (a bad key) included; nothing is kept after a call ends.
 */
import type { z } from 'zod';
import {
  CancelAgentRequestSchema,
  ExtensionErrorCode,
  NotifyLogSchema,
  NotifyResourceUpdatedSchema,
  PluginToServer,
  RequestElicitationSchema,
  RequestIdOnlySchema,
  RequestRootsSchema,
  RequestSamplingSchema,
  ResponseErrorKind,
  extensionError,
  successData,
} from '../../../plugins/sdk/wire/index.js';
import { isJunctionError, type AgentRequests } from '../../contracts/index.js';
import { callDeadlines, errorMessage, type TypedEmitter } from '../../shared/index.js';
import { HubMethodError, type HubConnection, type HubServer } from '../signalr/index.js';
import type { BridgeEvents, ResourceSubscriptions } from '../source/index.js';
import type { ActiveCalls } from './active-calls.js';
import type { HubWire } from './payloads.js';

/** The envelope's ErrorKind for each extension code a failed agent request may carry back to the plugin. */
const ERROR_KIND_BY_EXTENSION_CODE: Partial<Record<ExtensionErrorCode, ResponseErrorKind>> = {
  CapabilityUnavailable: ResponseErrorKind.Unavailable,
  InvalidRequest: ResponseErrorKind.BadRequest,
  AgentRequestFailed: ResponseErrorKind.Conflict,
  CallNotActive: ResponseErrorKind.NotFound,
  TooManyRequests: ResponseErrorKind.Conflict,
};

/** One agent request as the plugin sent it: the call it belongs to, its own id, and the key it is asked under. */
interface NestedAsk {
  requestId: string;
  nestedId: string;
  key?: string | undefined;
}

/**
 * Runs one nested request for the plugin and answers with a success or a coded error envelope. While
 * it is pending its call's deadline stands still; it waits at most `calls.agentRequestTimeoutMs`.
 */
async function nestedRequest<T>(calls: ActiveCalls, connection: HubConnection, ask: NestedAsk, run: (agent: AgentRequests, signal: AbortSignal) => Promise<T>): Promise<unknown> {
  const { requestId } = ask;
  const call = calls.get(requestId, connection.id);
  if (!call) return extensionError(requestId, ExtensionErrorCode.CallNotActive, `No running call '${requestId}' on this connection: requests to the agent are only possible while serving its call.`, ResponseErrorKind.NotFound);
  if (!call.agentRequests) return extensionError(requestId, ExtensionErrorCode.CapabilityUnavailable, 'This call did not come from an MCP agent session (it came over /api), so there is no agent to ask.', ResponseErrorKind.Unavailable);
  const nested = calls.nest(call, ask.nestedId, ask.key);
  if (!nested.ok) return extensionError(requestId, ExtensionErrorCode[nested.code], nested.message, ERROR_KIND_BY_EXTENSION_CODE[nested.code] ?? ResponseErrorKind.Conflict);
  const { controller } = nested;
  const timeoutMs = calls.agentRequestTimeoutMs;
  let timedOut = false;
  const cancelTimeout = callDeadlines.after(timeoutMs, () => {
    timedOut = true;
    controller.abort(new Error(`No answer within ${timeoutMs} ms.`));
  });
  try {
    return successData(requestId, await run(call.agentRequests, controller.signal));
  } catch (error) {
    if (controller.signal.aborted && !calls.get(requestId, connection.id)) {
      return extensionError(requestId, ExtensionErrorCode.CallNotActive, 'The tool call ended before the agent answered.', ResponseErrorKind.NotFound);
    }
    if (timedOut) {
      return extensionError(requestId, ExtensionErrorCode.AgentRequestFailed, `The agent (or the operator) did not answer within ${timeoutMs} ms.`, ResponseErrorKind.Timeout);
    }
    const code = isJunctionError(error) && error.code in ERROR_KIND_BY_EXTENSION_CODE ? (error.code as ExtensionErrorCode) : ExtensionErrorCode.AgentRequestFailed;
    return extensionError(requestId, code, errorMessage(error), ERROR_KIND_BY_EXTENSION_CODE[code] ?? ResponseErrorKind.Conflict);
  } finally {
    cancelTimeout();
    nested.end();
  }
}

/** What the extension's methods report into: resource updates to subscribers, log lines to agents and the console. */
export interface ExtensionSinks {
  subscriptions: Pick<ResourceSubscriptions, 'resourceUpdated'>;
  events: TypedEmitter<BridgeEvents>;
}

/**
 * Registers an agent request method: its payload read by the contract's schema, a payload the schema
 * refuses answered with InvalidRequest (reported once, as every refused payload is), and the request
 * run for the call it names.
 */
function agentRequestMethod<S extends z.ZodType>(
  hub: HubServer,
  calls: ActiveCalls,
  wire: HubWire,
  method: string,
  schema: S,
  ask: (request: z.output<S>) => NestedAsk,
  run: (request: z.output<S>, agent: AgentRequests, signal: AbortSignal) => Promise<unknown>,
): () => void {
  return hub.on(method, (connection, raw) => {
    let request: z.output<S>;
    try {
      request = wire.read(connection, method, schema, raw);
    } catch (error) {
      if (!(error instanceof HubMethodError)) throw error;
      const requestId = RequestIdOnlySchema.safeParse(raw).data?.requestId ?? '';
      return extensionError(requestId, ExtensionErrorCode.InvalidRequest, error.message, ResponseErrorKind.BadRequest);
    }
    return nestedRequest(calls, connection, ask(request), (agent, signal) => run(request, agent, signal));
  });
}

/** Registers the extension's plugin → server methods on `hub`; returns the disposers. */
export function attachExtensionMethods(hub: HubServer, calls: ActiveCalls, sinks: ExtensionSinks, wire: HubWire): Array<() => void> {
  return [
    agentRequestMethod(
      hub,
      calls,
      wire,
      PluginToServer.RequestElicitation,
      RequestElicitationSchema,
      (r) => ({ requestId: r.requestId, nestedId: r.elicitationId, key: r.key }),
      (r, agent, signal) => agent.elicit({ message: r.message, requestedSchema: r.requestedSchema }, signal, r.key),
    ),
    agentRequestMethod(
      hub,
      calls,
      wire,
      PluginToServer.RequestSampling,
      RequestSamplingSchema,
      (r) => ({ requestId: r.requestId, nestedId: r.samplingId, key: r.key }),
      (r, agent, signal) => agent.sample(r.params, signal, r.key),
    ),
    agentRequestMethod(
      hub,
      calls,
      wire,
      PluginToServer.RequestRoots,
      RequestRootsSchema,
      (r) => ({ requestId: r.requestId, nestedId: r.rootsId, key: r.key }),
      (r, agent, signal) => agent.listRoots(signal, r.key),
    ),
    hub.on(PluginToServer.CancelAgentRequest, (connection, raw) => {
      const request = wire.read(connection, PluginToServer.CancelAgentRequest, CancelAgentRequestSchema, raw);
      calls.get(request.requestId, connection.id)?.nested.get(request.nestedId)?.abort(new Error(request.reason ?? 'Cancelled by the plugin.'));
      return wire.acknowledged(request.requestId);
    }),
    hub.on(PluginToServer.NotifyResourceUpdated, (connection, raw) => {
      const request = wire.read(connection, PluginToServer.NotifyResourceUpdated, NotifyResourceUpdatedSchema, raw);
      sinks.subscriptions.resourceUpdated(connection.id, request.uri);
      return wire.acknowledged(request.requestId);
    }),
    hub.on(PluginToServer.NotifyLog, (connection, raw) => {
      const data = wire.read(connection, PluginToServer.NotifyLog, NotifyLogSchema, raw);
      const payload = data.data === undefined ? data.message : data.data;
      const call = data.requestId ? calls.get(data.requestId, connection.id) : undefined;
      if (call?.agentRequests) call.agentRequests.log(data.level, payload, data.logger);
      else sinks.events.emit('agentLog', { level: data.level, data: payload, ...(data.logger ? { logger: data.logger } : {}) });
      sinks.events.emit('log', { connectionId: connection.id, origin: 'plugin', level: data.level, message: data.message, ...(data.requestId ? { requestId: data.requestId } : {}) });
      return wire.acknowledged(data.requestId ?? '');
    }),
  ];
}
