/**
 * MCP extension 1 on the hub: a plugin's elicitation and sampling requests go to the agent session
 * of the call they belong to (and only while that call runs, on the connection that serves it); log
 * lines of a call go to its session, other log lines to every session; resource updates fan out to
 * subscribers. Every refusal is an envelope with a stable `code`; nothing is kept after a call ends.
 */
import {
  CancelAgentRequestSchema,
  ExtensionErrorCode,
  NotifyLogSchema,
  NotifyResourceUpdatedSchema,
  PluginToServer,
  RequestElicitationSchema,
  RequestSamplingSchema,
  ResponseErrorKind,
  extensionError,
  successData,
} from '../../../plugins/sdk/wire/index.js';
import { isJunctionError, type AgentRequests } from '../../contracts/index.js';
import { callDeadlines, errorMessage, type TypedEmitter } from '../../shared/index.js';
import type { HubConnection, HubServer } from '../signalr/index.js';
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

/**
 * Runs one nested request for the plugin and answers with a success or a coded error envelope. While
 * it is pending its call's deadline stands still; it waits at most `calls.agentRequestTimeoutMs`.
 */
async function nestedRequest<T>(
  calls: ActiveCalls,
  connection: HubConnection,
  requestId: string,
  nestedId: string,
  run: (agent: AgentRequests, signal: AbortSignal) => Promise<T>,
): Promise<unknown> {
  const call = calls.get(requestId, connection.id);
  if (!call) return extensionError(requestId, ExtensionErrorCode.CallNotActive, `No running call '${requestId}' on this connection: requests to the agent are only possible while serving its call.`, ResponseErrorKind.NotFound);
  if (!call.agentRequests) return extensionError(requestId, ExtensionErrorCode.CapabilityUnavailable, 'This call did not come from an MCP agent session (it came over /api), so there is no agent to ask.', ResponseErrorKind.Unavailable);
  const nested = calls.nest(call, nestedId);
  if (!nested.ok) return extensionError(requestId, ExtensionErrorCode.TooManyRequests, nested.message, ResponseErrorKind.Conflict);
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

/** Registers the extension's plugin → server methods on `hub`; returns the disposers. */
export function attachExtensionMethods(hub: HubServer, calls: ActiveCalls, sinks: ExtensionSinks, wire: HubWire): Array<() => void> {
  return [
    hub.on(PluginToServer.RequestElicitation, (connection, raw) => {
      const request = wire.read(connection, PluginToServer.RequestElicitation, RequestElicitationSchema, raw);
      return nestedRequest(calls, connection, request.requestId, request.elicitationId, (agent, signal) =>
        agent.elicit({ message: request.message, requestedSchema: request.requestedSchema }, signal),
      );
    }),
    hub.on(PluginToServer.RequestSampling, (connection, raw) => {
      const request = wire.read(connection, PluginToServer.RequestSampling, RequestSamplingSchema, raw);
      return nestedRequest(calls, connection, request.requestId, request.samplingId, (agent, signal) => agent.sample(request.params, signal));
    }),
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
