/**
 * A session's `tools/call` requests served beside the SDK's Protocol instead of through it. For every
 * message the Protocol runs three schema checks to tell what it is, then builds an AbortController, a
 * handler context with two closures and a promise chain, and the Server checks the request against
 * CallToolRequestSchema again: about a fifth of the CPU a bridged call cost Junction on /mcp. A request
 * that schema surely accepts as it stands (`isPlainToolCall`) is served here as the Protocol would serve
 * it: the same handler, cancelled by `notifications/cancelled` for its id or by the session closing,
 * its progress and nested requests sent as related to it, answered with the Protocol's response or error
 * message, and not answered at all once cancelled. Every other message still goes to the Protocol.
 */
import { CancelledNotificationSchema, ErrorCode, type CallToolRequest, type CallToolResult, type JSONRPCMessage, type RequestId, type ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { NotificationOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { isPlainToolCall } from './jsonrpc-http.js';
import { resultResponseJson } from './tool-result-json.js';
import type { JsonText } from '../contracts/index.js';
import { abortable, type Abortable } from '../shared/index.js';

/** What a tools/call handler uses of the SDK's request context: the request's id, its cancellation and its related notifications. */
export interface ToolCallExtra {
  signal: AbortSignal;
  requestId: RequestId;
  sendNotification(notification: ServerNotification): Promise<void>;
}

/**
 * A tools/call result, with the dispatcher's JSON of it when the result passes CallToolResultSchema as it
 * stands (tool-result-json.ts). Handed over beside the result rather than registered for it in a
 * WeakMap, which cost every call an entry keyed by a short-lived object (ephemeron work for the collector).
 */
export interface ToolCallAnswer {
  result: CallToolResult;
  json: JsonText | undefined;
}

/** A session's tools/call handler, the one its Server has registered (which registers `json` for the SDK's transport). */
export type SessionToolCall = (request: CallToolRequest, extra: ToolCallExtra) => Promise<ToolCallAnswer>;

/** Where related notifications go: the session's Server, which sends them on the transport with the call's id. */
export interface Notifier {
  notification(notification: ServerNotification, options?: NotificationOptions): Promise<void>;
}

/** The error message the SDK's Protocol answers a failed handler with, key for key. */
function errorResponse(id: RequestId, error: unknown): JSONRPCMessage {
  const failure = (error ?? {}) as { code?: unknown; message?: string; data?: unknown };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: Number.isSafeInteger(failure.code) ? (failure.code as number) : ErrorCode.InternalError,
      message: failure.message ?? 'Internal error',
      ...(failure.data !== undefined && { data: failure.data }),
    },
  };
}

export class DirectToolCalls {
  /** Calls running, by request id, each with the signal its cancellation aborts. */
  private readonly running = new Map<RequestId, Abortable>();

  constructor(
    private readonly handler: SessionToolCall,
    private readonly notifier: Notifier,
    /** Sends the serialised answer to request `id`; dropped when nobody waits for it any more. */
    private readonly answer: (id: RequestId, json: JsonText) => void,
  ) {}

  /** Serves `message` when it is a tools/call this class answers exactly as the Protocol would; false leaves it to the Protocol. */
  take(message: JSONRPCMessage): boolean {
    if (!isPlainToolCall(message)) return false;
    const { id } = message;
    const call = abortable();
    this.running.set(id, call);
    const { signal } = call;
    const extra: ToolCallExtra = {
      signal,
      requestId: id,
      sendNotification: (notification) => (signal.aborted ? Promise.resolve() : this.notifier.notification(notification, { relatedRequestId: id })),
    };
    // The request goes to the handler as it came, as the Protocol hands it over. The call leaves `running`
    // in each settlement handler rather than in a `finally` of its own: one promise and closure fewer per call.
    Promise.resolve()
      .then(() => this.handler(message as CallToolRequest, extra))
      .then(
        ({ result, json }) => {
          this.settled(id, call);
          if (!signal.aborted) this.answer(id, resultResponseJson(id, result, json));
        },
        (error: unknown) => {
          this.settled(id, call);
          if (!signal.aborted) this.answer(id, JSON.stringify(errorResponse(id, error)));
        },
      );
    return true;
  }

  /** Call `id` ended; a later call that reused its id keeps its own entry. */
  private settled(id: RequestId, call: Abortable): void {
    call.end();
    if (this.running.get(id) === call) this.running.delete(id);
  }

  /** A `notifications/cancelled` for one of these calls aborts it (the Protocol, which sees it too, finds nothing of its own to abort). */
  cancelled(message: JSONRPCMessage): void {
    if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message || this.running.size === 0) return;
    const parsed = CancelledNotificationSchema.safeParse(message);
    const requestId = parsed.success ? parsed.data.params.requestId : undefined;
    // As the Protocol reads it: no id (or a falsy one) cancels nothing.
    if (!requestId) return;
    this.running.get(requestId)?.abort(parsed.data?.params.reason);
  }

  /** The session closed: every call running stops, as the Protocol aborts its handlers on close. */
  close(): void {
    for (const call of this.running.values()) call.abort();
    this.running.clear();
  }
}
