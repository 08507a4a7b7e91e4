/**
 * The server side of one SignalR connection, as the rest of the bridge sees it. Transport details
 * (negotiate, WebSocket framing, keep-alive, JSON hub protocol) stay inside bridge/signalr.
 */
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A hub method callable by clients. Its value (or resolved promise) is the invocation result; a
 * method answering StreamInvocation returns an AsyncIterable whose items are streamed.
 */
export type HubMethodHandler = (connection: HubConnection, ...args: unknown[]) => unknown;

export interface InvokeOptions {
  /** Rejects with a timeout error when the client has not completed within this time. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Another end to the wait, as `signal` ends it: called once with the invocation's abort, returns its
   * withdrawal. A caller with a second reason to give up (a call's deadline) registers it here instead
   * of merging both into an AbortController of its own per call, whose signal and listener cost
   * several percent of a bridged call's CPU.
   */
  cancelWhen?: (abort: () => void) => () => void;
}

export interface HubConnection {
  /** SignalR connection id (also the connection token's public half). */
  readonly id: string;
  /** Query string of the connect URL (e.g. `client_role`, `instance_id`). */
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly remoteAddress: string | undefined;
  readonly connectedAt: number;
  /** Server-to-client invocation that awaits the client's result (SignalR "client results"). */
  invoke(method: string, args: unknown[], options?: InvokeOptions): Promise<unknown>;
  /** Server-to-client invocation without a result; dropped silently once the connection is closing. */
  send(method: string, args: unknown[]): void;
  /**
   * Closes the connection, optionally with an error message the client sees in its Close frame.
   * `allowReconnect` (default false) tells a client built withAutomaticReconnect() whether to come back.
   */
  close(error?: string, allowReconnect?: boolean): void;
  onClose(listener: (error?: Error) => void): () => void;
  readonly closed: boolean;
}

export interface HubServerEvents {
  /** A connection completed its handshake; register method handlers on the hub, not the connection. */
  connected: HubConnection;
  disconnected: { connection: HubConnection; error?: Error };
  /**
   * A hub method threw something other than HubMethodError (the client saw only a generic error), or
   * a listener of `connected`/`disconnected`/`onClose` threw (`method` names that event).
   */
  handlerError: { connection: HubConnection; method: string; error: unknown };
  /** A message over the frame limit was skipped; what it was and what became of it (see OversizedMessage). */
  oversized: OversizedMessage;
  /** A message that is not a valid hub message was placed like an oversized one and failed alone (or closed the connection). */
  malformed: MalformedMessage;
}

/** A record that did not parse: the parser's reason, and what it belonged to as far as its text shows. */
export interface MalformedMessage {
  connection: HubConnection;
  error: string;
  type?: number;
  invocationId?: string;
  target?: string;
  failedInvocation?: string;
  closed: boolean;
}

/**
 * A hub message larger than the frame limit. The hub reads past it (the stream stays in step) and
 * fails only what it belonged to: the server invocation it completed (`failedInvocation`), or the
 * client's own invocation (answered with an error Completion); one it cannot place closes the
 * connection (`closed`). `requestId` is McpPlugin's request id, when the record's start shows it.
 */
export interface OversizedMessage {
  connection: HubConnection;
  bytes: number;
  limitBytes: number;
  type?: number;
  invocationId?: string;
  target?: string;
  requestId?: string;
  /** The client method of the server invocation it completed. */
  failedInvocation?: string;
  closed: boolean;
}

/** Errors thrown by a hub method handler with this name reach the client as the invocation error text verbatim. */
export class HubMethodError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HubMethodError';
  }
}

/**
 * `invalidArguments`: the arguments cannot be encoded as JSON (BigInt, cycles); nothing was sent.
 * `payloadTooLarge`: the invocation, or the client's Completion of it, is larger than the frame limit.
 * `malformed`: the client's Completion is not a valid hub message (truncated, not JSON).
 */
export type HubInvocationFailure = 'clientError' | 'timeout' | 'aborted' | 'connectionClosed' | 'invalidArguments' | 'payloadTooLarge' | 'malformed';

export interface MessageSize {
  bytes: number;
  limitBytes: number;
  direction: 'request' | 'reply';
}

/** Why a server-to-client `invoke()` failed; `reason` lets callers tell a client's own error from transport loss. */
export class HubInvocationError extends Error {
  constructor(
    readonly reason: HubInvocationFailure,
    message: string,
    /** For `payloadTooLarge`: the message's size, the limit it exceeded, and whether it was ours or the client's answer. */
    readonly size?: MessageSize,
  ) {
    super(message);
    this.name = 'HubInvocationError';
  }
}
