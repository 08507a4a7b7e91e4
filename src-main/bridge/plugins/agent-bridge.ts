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
  RequestElicitationSchema,
  RequestSamplingSchema,
  ResponseErrorKind,
  ServerMethod,
  extensionError,
  successData,
} from '../../../plugins/sdk/src/protocol.js';
import { isJunctionError } from '../../contracts/index.js';
import type { AgentRequests } from '../../contracts/index.js';
import type { z } from 'zod';
import type { HubConnection, HubServer } from '../signalr/index.js';
import type { BridgeToolSource } from './bridge-source.js';
import { errorMessage } from '../../shared/index.js';

/** The hub adapter's reading (case-tolerant, refusals logged once) and acknowledgement of plugin payloads. */
export interface HubWire {
  read<T extends z.ZodType>(connection: HubConnection, method: string, schema: T, raw: unknown): z.output<T>;
  acknowledged(requestId: string): unknown;
}

/** Nested requests one call may have pending at once; more are refused with TooManyRequests. */
export const MAX_PENDING_PER_CALL = 8;

interface ActiveCall {
  connectionId: string;
  agentRequests: AgentRequests | undefined;
  /** Pending elicitation/sampling requests by the plugin's nested id. */
  nested: Map<string, AbortController>;
}

/** The plugin calls in flight, keyed by the bridge's requestId, with their pending nested requests. */
export class ActiveCalls {
  private readonly calls = new Map<string, ActiveCall>();

  begin(requestId: string, connectionId: string, agentRequests: AgentRequests | undefined): void {
    this.calls.set(requestId, { connectionId, agentRequests, nested: new Map() });
  }

  /** Ends the call and cancels what it still waits for (the agent hears notifications/cancelled). */
  end(requestId: string): void {
    const call = this.calls.get(requestId);
    if (!call) return;
    this.calls.delete(requestId);
    for (const controller of call.nested.values()) controller.abort(new Error('The tool call ended.'));
  }

  get(requestId: string, connectionId: string): ActiveCall | undefined {
    const call = this.calls.get(requestId);
    return call?.connectionId === connectionId ? call : undefined;
  }

  /** Calls in flight and nested requests pending, for leak checks. */
  counts(): { calls: number; nested: number } {
    let nested = 0;
    for (const call of this.calls.values()) nested += call.nested.size;
    return { calls: this.calls.size, nested };
  }
}

const KIND_BY_CODE: Record<string, ResponseErrorKind> = {
  CapabilityUnavailable: ResponseErrorKind.Unavailable,
  InvalidRequest: ResponseErrorKind.BadRequest,
  AgentRequestFailed: ResponseErrorKind.Conflict,
};

/** Runs one nested request for the plugin and answers with a success or a coded error envelope. */
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
  if (call.nested.size >= MAX_PENDING_PER_CALL || call.nested.has(nestedId)) {
    return extensionError(requestId, ExtensionErrorCode.TooManyRequests, `A call may have at most ${MAX_PENDING_PER_CALL} pending agent requests, each with a distinct id.`, ResponseErrorKind.Conflict);
  }
  const controller = new AbortController();
  call.nested.set(nestedId, controller);
  try {
    return successData(requestId, await run(call.agentRequests, controller.signal));
  } catch (error) {
    if (controller.signal.aborted && !calls.get(requestId, connection.id)) {
      return extensionError(requestId, ExtensionErrorCode.CallNotActive, 'The tool call ended before the agent answered.', ResponseErrorKind.NotFound);
    }
    const code = isJunctionError(error) && error.code in KIND_BY_CODE ? (error.code as ExtensionErrorCode) : ExtensionErrorCode.AgentRequestFailed;
    return extensionError(requestId, code, errorMessage(error), KIND_BY_CODE[code] ?? ResponseErrorKind.Conflict);
  } finally {
    call.nested.delete(nestedId);
  }
}

/** Registers the extension's plugin → server methods on `hub`; returns the disposers. */
export function attachAgentBridge(hub: HubServer, calls: ActiveCalls, source: BridgeToolSource, wire: HubWire): Array<() => void> {
  return [
    hub.on(ServerMethod.RequestElicitation, (connection, raw) => {
      const request = wire.read(connection, ServerMethod.RequestElicitation, RequestElicitationSchema, raw);
      return nestedRequest(calls, connection, request.requestId, request.elicitationId, (agent, signal) =>
        agent.elicit({ message: request.message, requestedSchema: request.requestedSchema }, signal),
      );
    }),
    hub.on(ServerMethod.RequestSampling, (connection, raw) => {
      const request = wire.read(connection, ServerMethod.RequestSampling, RequestSamplingSchema, raw);
      return nestedRequest(calls, connection, request.requestId, request.samplingId, (agent, signal) => agent.sample(request.params, signal));
    }),
    hub.on(ServerMethod.CancelAgentRequest, (connection, raw) => {
      const request = wire.read(connection, ServerMethod.CancelAgentRequest, CancelAgentRequestSchema, raw);
      calls.get(request.requestId, connection.id)?.nested.get(request.nestedId)?.abort(new Error(request.reason ?? 'Cancelled by the plugin.'));
      return wire.acknowledged(request.requestId);
    }),
    hub.on(ServerMethod.NotifyResourceUpdated, (connection, raw) => {
      const request = wire.read(connection, ServerMethod.NotifyResourceUpdated, NotifyResourceUpdatedSchema, raw);
      source.resourceUpdated(connection.id, request.uri);
      return wire.acknowledged(request.requestId);
    }),
    hub.on(ServerMethod.NotifyLog, (connection, raw) => {
      const data = wire.read(connection, ServerMethod.NotifyLog, NotifyLogSchema, raw);
      const payload = data.data === undefined ? data.message : data.data;
      const call = data.requestId ? calls.get(data.requestId, connection.id) : undefined;
      if (call?.agentRequests) call.agentRequests.log(data.level, payload, data.logger);
      else source.events.emit('agentLog', { level: data.level, data: payload, ...(data.logger ? { logger: data.logger } : {}) });
      source.events.emit('log', { connectionId: connection.id, origin: 'plugin', level: data.level, message: data.message, ...(data.requestId ? { requestId: data.requestId } : {}) });
      return wire.acknowledged(data.requestId ?? '');
    }),
  ];
}
