/**
 * One SignalR connection over one WebSocket: handshake, record framing, keep-alive and client
 * timeout, client results, and hand-off of invocations to the runner. Any protocol error ends this
 * connection only; the hub and other connections never see it.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { RawData, WebSocket } from 'ws';
import { closeMessage, handshakeResponse, invocationMessage, MessageType, parseClientMessage, parseHandshakeRequest, pingMessage, type ClientMessage } from './hub-messages.js';
import { InvocationRunner, type HandlerErrorReporter, type MethodTable } from './invocation-runner.js';
import { OutboundBatch } from './outbound-batch.js';
import { PendingInvocations } from './pending-invocations.js';
import { edgesOf, encodeRecord, encodeRecordText, oversizedSummary, recordText, RecordSplitter, type OversizedRecord } from './record-framing.js';
import { HubInvocationError, type HubConnection, type InvokeOptions, type MalformedMessage, type OversizedMessage } from './types.js';
import type { JsonText } from '../../contracts/index.js';
import { errorMessage, textByteLength, textLength } from '../../shared/index.js';

export interface ConnectionSettings {
  maxFrameBytes: number;
  keepAliveIntervalMs: number;
  clientTimeoutMs: number;
  handshakeTimeoutMs: number;
  maxParallelInvocations: number;
}

export interface ConnectionHooks {
  methods: MethodTable;
  handshakeCompleted(connection: SignalRConnection): void;
  closed(connection: SignalRConnection, error: Error | undefined): void;
  handlerError: HandlerErrorReporter;
  /** A message over the frame limit was read past; told after its call failed or the connection closed. */
  oversized(message: OversizedMessage): void;
  /** A message that did not parse; told after its call failed or the connection closed. */
  malformed(message: MalformedMessage): void;
}

type State = 'handshaking' | 'open' | 'closing' | 'closed';

/** How long a closing socket may take to finish the WebSocket close handshake before it is cut. */
const CLOSE_GRACE_MS = 2000;

/** UTF-8 takes at most 3 bytes per UTF-16 code unit: below this many characters a record cannot exceed `bytes`. */
const charsSurelyWithin = (bytes: number) => Math.floor(bytes / 3);

function rawToBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

export class SignalRConnection implements HubConnection {
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly remoteAddress: string | undefined;
  readonly connectedAt = Date.now();
  /** Settles when the socket is fully closed and every listener has run. */
  readonly whenClosed: Promise<void>;

  private state: State = 'handshaking';
  private closeError: Error | undefined;
  private lastReceivedAt = Date.now();
  private readonly splitter: RecordSplitter;
  /** Every record this connection writes goes through here, so order holds across all writers. */
  private readonly outbound: OutboundBatch;
  private readonly pending = new PendingInvocations();
  private readonly runner: InvocationRunner;
  private readonly closeListeners = new Set<(error?: Error) => void>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private markClosed!: () => void;

  constructor(
    readonly id: string,
    private readonly socket: WebSocket,
    request: IncomingMessage,
    private readonly settings: ConnectionSettings,
    private readonly hooks: ConnectionHooks,
  ) {
    this.query = new URL(request.url ?? '/', 'http://localhost').searchParams;
    // The negotiate token is a one-time credential; nothing downstream (logs, console) needs to see it.
    this.query.delete('id');
    this.headers = request.headers;
    this.remoteAddress = request.socket.remoteAddress;
    this.splitter = new RecordSplitter(settings.maxFrameBytes);
    this.outbound = new OutboundBatch(socket, settings.maxFrameBytes);
    this.runner = new InvocationRunner(this, hooks.methods, { transmit: (record) => this.transmit(record), post: (record) => this.post(record) }, hooks.handlerError, settings.maxParallelInvocations);
    this.whenClosed = new Promise((resolve) => (this.markClosed = resolve));
    socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    socket.on('error', (error) => (this.closeError ??= error));
    socket.on('close', (code, reason) => this.finish(code, reason.toString()));
    this.after(settings.handshakeTimeoutMs, () => {
      if (this.state === 'handshaking') this.rejectHandshake(`Handshake was not completed within ${settings.handshakeTimeoutMs} ms.`);
    });
  }

  get closed(): boolean {
    return this.state === 'closing' || this.state === 'closed';
  }

  invoke(method: string, args: unknown[], options: InvokeOptions = {}): Promise<unknown> {
    if (this.state !== 'open') return Promise.reject(new HubInvocationError('connectionClosed', `Connection ${this.id} is not open.`));
    return this.pending.start(method, options, (invocationId) => {
      let record: JsonText;
      try {
        record = encodeRecordText(invocationMessage(method, args, invocationId));
      } catch (error) {
        throw new HubInvocationError('invalidArguments', `Arguments for client method '${method}' cannot be encoded as JSON: ${errorMessage(error)}`);
      }
      this.checkOutgoing(method, record);
      if (!this.write(record)) throw new Error('the WebSocket is not open');
    });
  }

  /** Fire-and-forget: silently dropped once the connection is closing, like any message lost with its transport. */
  send(method: string, args: unknown[]): void {
    if (this.state !== 'open') return;
    this.write(encodeRecord(invocationMessage(method, args)));
  }

  /** The limit holds both ways: an invocation larger than it is refused before anything is sent. */
  private checkOutgoing(method: string, record: JsonText): void {
    const limitBytes = this.settings.maxFrameBytes;
    if (textLength(record) <= charsSurelyWithin(limitBytes)) return;
    const bytes = textByteLength(record) - 1;
    if (bytes <= limitBytes) return;
    throw new HubInvocationError('payloadTooLarge', `The invocation of client method '${method}' is ${bytes} bytes, over the hub's limit of ${limitBytes} bytes; nothing was sent.`, { bytes, limitBytes, direction: 'request' });
  }

  close(error?: string, allowReconnect = false): void {
    if (this.closed) return;
    if (error !== undefined) this.closeError = new Error(error);
    if (this.state === 'handshaking') {
      this.rejectHandshake(error ?? 'The server closed the connection during the handshake.');
      return;
    }
    this.write(encodeRecord(closeMessage(error, allowReconnect)));
    this.closeSocket();
  }

  onClose(listener: (error?: Error) => void): () => void {
    if (this.state === 'closed') {
      queueMicrotask(() => listener(this.closeError));
      return () => undefined;
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    this.lastReceivedAt = Date.now();
    if (isBinary) {
      this.protocolError('binary WebSocket messages are not supported; this hub speaks the JSON hub protocol over Text frames');
      return;
    }
    for (const record of this.splitter.push(rawToBuffer(data))) {
      if (this.closed) return;
      if (typeof record !== 'string' && !Buffer.isBuffer(record)) this.skipped(record);
      else if (this.state === 'handshaking') this.handshake(recordText(record));
      else this.dispatch(record);
    }
  }

  /**
   * A record over the limit was read past, unparsed. What it completed or asked for fails alone; the
   * connection lives on, unless the record cannot be placed (no type or no invocation id where one is
   * needed): then some call would wait for nothing, and closing says why to every one of them.
   */
  private skipped(record: OversizedRecord): void {
    const limitBytes = this.settings.maxFrameBytes;
    const summary = oversizedSummary(record);
    const size = { bytes: record.bytes, limitBytes, direction: 'reply' } as const;
    const what = `a message of ${record.bytes} bytes exceeds the limit of ${limitBytes} bytes (maxFrameBytes)`;
    const report = (outcome: Pick<OversizedMessage, 'failedInvocation' | 'closed'>) => this.hooks.oversized({ connection: this, bytes: record.bytes, limitBytes, ...summary, ...outcome });
    if (this.state === 'handshaking') {
      this.rejectHandshake(`Protocol error: ${what}.`);
      report({ closed: true });
      return;
    }
    const { type, invocationId } = summary;
    if (type === MessageType.Completion && invocationId !== undefined) {
      const failedInvocation = this.pending.failOne(invocationId, (method) => new HubInvocationError('payloadTooLarge', `The client's answer to '${method}' was ${record.bytes} bytes, over the hub's limit of ${limitBytes} bytes.`, size));
      report({ closed: false, ...(failedInvocation === undefined ? {} : { failedInvocation }) });
      return;
    }
    if ((type === MessageType.Invocation || type === MessageType.StreamInvocation) && invocationId !== undefined) {
      this.post(encodeRecord({ type: MessageType.Completion, invocationId, error: `Invocation refused: ${what}.` }));
      report({ closed: false });
      return;
    }
    if (type === MessageType.Invocation || type === MessageType.Ping) {
      report({ closed: false });
      return;
    }
    this.protocolError(what);
    report({ closed: true });
  }

  private handshake(record: string): void {
    const request = parseHandshakeRequest(record);
    if (!request.ok) {
      this.rejectHandshake(request.error);
      return;
    }
    this.write(encodeRecord(handshakeResponse()));
    this.state = 'open';
    this.startKeepAlive();
    this.hooks.handshakeCompleted(this);
  }

  private dispatch(record: string | Buffer): void {
    const parsed = parseClientMessage(record);
    if (!parsed.ok) {
      this.unparsed(record, parsed.error);
      return;
    }
    this.handle(parsed.value);
  }

  /**
   * A record that is not a valid hub message (truncated, not JSON, a wrong shape) still ended at its
   * separator, so the stream is in step: a Completion or Invocation whose id shows fails alone, as an
   * oversized one does. Anything else closes the connection, naming the protocol error.
   */
  private unparsed(record: string | Buffer, error: string): void {
    const summary = oversizedSummary(edgesOf(record));
    const report = (outcome: Pick<MalformedMessage, 'failedInvocation' | 'closed'>) => this.hooks.malformed({ connection: this, error, ...summary, ...outcome });
    const { type, invocationId } = summary;
    if (type === MessageType.Completion && invocationId !== undefined) {
      const failedInvocation = this.pending.failOne(invocationId, (method) => new HubInvocationError('malformed', `The client's answer to '${method}' is not a valid hub message: ${error}`));
      report({ closed: false, ...(failedInvocation === undefined ? {} : { failedInvocation }) });
      return;
    }
    if (type === MessageType.Invocation && invocationId !== undefined) {
      this.post(encodeRecord({ type: MessageType.Completion, invocationId, error: `Invocation refused: ${error}.` }));
      report({ closed: false });
      return;
    }
    this.protocolError(error);
    report({ closed: true });
  }

  private handle(message: ClientMessage): void {
    switch (message.type) {
      case MessageType.Invocation:
        this.runner.invoke(message);
        return;
      case MessageType.StreamInvocation:
        this.runner.stream(message);
        return;
      case MessageType.CancelInvocation:
        this.runner.cancel(message.invocationId);
        return;
      case MessageType.Completion:
        // A Completion for an id we no longer wait for (timed out, aborted) is late, not malformed.
        this.pending.complete(message.invocationId, message);
        return;
      case MessageType.StreamItem:
        // Uploads are refused at invocation time, so an item can only belong to a refused stream.
        return;
      case MessageType.Ping:
        return;
      case MessageType.Close:
        if (message.error !== undefined) this.closeError = new Error(`Client closed the connection with an error: ${message.error}`);
        this.closeSocket();
        return;
    }
  }

  /** A protocol error ends the connection: after a malformed record the stream cannot be trusted to be in sync. */
  private protocolError(reason: string): void {
    this.close(`Protocol error: ${reason}.`, false);
  }

  private rejectHandshake(error: string): void {
    this.closeError ??= new Error(error);
    this.write(encodeRecord(handshakeResponse(error)));
    this.closeSocket();
  }

  private startKeepAlive(): void {
    const ping = encodeRecord(pingMessage);
    const interval = setInterval(() => this.write(ping), this.settings.keepAliveIntervalMs);
    interval.unref();
    this.timers.add(interval);
    this.watchClientTimeout(this.settings.clientTimeoutMs);
  }

  /** One timer re-armed for the remaining time, instead of a reset on every received message. */
  private watchClientTimeout(delayMs: number): void {
    this.after(delayMs, () => {
      if (this.state !== 'open') return;
      const silentMs = Date.now() - this.lastReceivedAt;
      const remaining = this.settings.clientTimeoutMs - silentMs;
      if (remaining > 0) this.watchClientTimeout(remaining);
      else this.close(`Client timeout: nothing was received for ${this.settings.clientTimeoutMs} ms.`, true);
    });
  }

  private after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /** False when the socket can no longer take data (the peer may be closing before our state knows it). */
  private write(record: JsonText): boolean {
    return this.outbound.write(record);
  }

  /** A reply to the client: sent while the connection is open, dropped once it is closing. */
  private post(record: string): void {
    if (this.state === 'open') this.write(record);
  }

  /** Resolves once the record is handed to the socket, so a stream producer feels the socket's pace. */
  private transmit(record: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const sent = (error?: Error): void => (error ? reject(error) : resolve());
      if (this.state !== 'open' || !this.outbound.write(record, sent)) reject(new Error('the connection is closed'));
    });
  }

  private closeSocket(): void {
    if (this.closed) return;
    this.state = 'closing';
    this.clearTimers();
    this.outbound.flush();
    this.socket.close(1000);
    const force = setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS);
    force.unref();
    this.timers.add(force);
  }

  private finish(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.clearTimers();
    this.outbound.discard(new Error('the connection is closed'));
    if (!this.closeError && code !== 1000 && code !== 1001 && code !== 1005) {
      this.closeError = new Error(`WebSocket closed with code ${code}${reason ? ` (${reason})` : ''}.`);
    }
    this.pending.failAll(new HubInvocationError('connectionClosed', `Connection ${this.id} closed before the client completed the invocation.`));
    this.runner.cancelAll();
    this.hooks.closed(this, this.closeError);
    for (const listener of [...this.closeListeners]) {
      try {
        listener(this.closeError);
      } catch (error) {
        this.hooks.handlerError('onClose', error);
      }
    }
    this.closeListeners.clear();
    this.markClosed();
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
