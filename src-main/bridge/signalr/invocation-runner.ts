/**
 * Runs client-to-server invocations against the registered hub methods for one connection and
 * writes their Completion / StreamItem messages. Invocations run concurrently: a method that awaits a
 * client result must not block the Completion that carries it.
 */
import {
  completionError,
  completionResult,
  streamItemMessage,
  type InvocationMessage,
  type StreamInvocationMessage,
} from './hub-messages.js';
import { encodeRecord } from './record-framing.js';
import { HubMethodError, type HubConnection, type HubMethodHandler } from './types.js';

export interface Outbound {
  /** Resolves once the record is handed to the socket; rejects when the connection is gone. */
  transmit(record: string): Promise<void>;
  /** Queues the record without waiting; dropped when the connection is gone (nobody is left to tell). */
  post(record: string): void;
}

export interface MethodTable {
  lookup(method: string): HubMethodHandler | undefined;
}

export type HandlerErrorReporter = (method: string, error: unknown) => void;

const genericError = (method: string): string => `An unexpected error occurred invoking '${method}' on the server.`;

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/** Resolves when the signal aborts; never rejects. */
function whenAborted(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

export class InvocationRunner {
  private readonly streams = new Map<string, AbortController>();
  private running = 0;

  /** @param maxParallel invocations and streams of this connection that may run at once; more are refused, not queued. */
  constructor(
    private readonly connection: HubConnection,
    private readonly methods: MethodTable,
    private readonly out: Outbound,
    private readonly reportError: HandlerErrorReporter,
    private readonly maxParallel: number,
  ) {}

  invoke(message: InvocationMessage): void {
    if (this.admit(message)) void this.runInvocation(message).finally(() => this.running--);
  }

  stream(message: StreamInvocationMessage): void {
    if (this.admit(message)) void this.runStream(message).finally(() => this.running--);
  }

  private admit(message: InvocationMessage | StreamInvocationMessage): boolean {
    if (this.running < this.maxParallel) {
      this.running++;
      return true;
    }
    const text = `Too many parallel invocations on this connection (limit ${this.maxParallel}); wait for results before invoking '${message.target}' again.`;
    if (message.invocationId === undefined) this.reportError(message.target, new Error(text));
    else this.post(encodeRecord(completionError(message.invocationId, text)));
    return false;
  }

  cancel(invocationId: string): void {
    this.streams.get(invocationId)?.abort();
  }

  /** Stops every running stream; used when the connection ends. */
  cancelAll(): void {
    for (const controller of this.streams.values()) controller.abort();
  }

  private resolveHandler(message: InvocationMessage | StreamInvocationMessage): { handler: HubMethodHandler } | { error: string } {
    if (message.streamIds && message.streamIds.length > 0) {
      return { error: `Client-to-server streaming is not supported by this hub; '${message.target}' was invoked with streamIds.` };
    }
    const handler = this.methods.lookup(message.target);
    return handler ? { handler } : { error: `Unknown hub method '${message.target}'` };
  }

  private errorText(method: string, error: unknown): string {
    if (error instanceof HubMethodError) return error.message;
    this.reportError(method, error);
    return genericError(method);
  }

  private async runInvocation(message: InvocationMessage): Promise<void> {
    const id = message.invocationId;
    const resolved = this.resolveHandler(message);
    if ('error' in resolved) {
      if (id !== undefined) this.post(encodeRecord(completionError(id, resolved.error)));
      return;
    }
    let record: string;
    try {
      const value: unknown = await resolved.handler(this.connection, ...message.arguments);
      if (isAsyncIterable(value)) {
        void closeIterator(value[Symbol.asyncIterator]());
        throw new HubMethodError(`The client attempted to invoke the streaming method '${message.target}' in a non-streaming fashion.`);
      }
      if (id === undefined) return;
      record = this.encodeResult(message.target, () => completionResult(id, value));
    } catch (error) {
      const text = this.errorText(message.target, error);
      if (id === undefined) return;
      record = encodeRecord(completionError(id, text));
    }
    this.post(record);
  }

  private async runStream(message: StreamInvocationMessage): Promise<void> {
    const id = message.invocationId;
    if (this.streams.has(id)) {
      this.post(encodeRecord(completionError(id, `Invocation ID '${id}' is already in use.`)));
      return;
    }
    const resolved = this.resolveHandler(message);
    if ('error' in resolved) {
      this.post(encodeRecord(completionError(id, resolved.error)));
      return;
    }
    const controller = new AbortController();
    this.streams.set(id, controller);
    const aborted = whenAborted(controller.signal);
    let iterator: AsyncIterator<unknown> | undefined;
    let exhausted = false;
    try {
      const value: unknown = await resolved.handler(this.connection, ...message.arguments);
      if (!isAsyncIterable(value)) {
        throw new HubMethodError(`The client attempted to invoke the non-streaming method '${message.target}' in a streaming fashion.`);
      }
      iterator = value[Symbol.asyncIterator]();
      for (;;) {
        const step = await Promise.race([iterator.next(), aborted]);
        if (step === 'aborted') break;
        if (step.done) {
          exhausted = true;
          break;
        }
        const item = this.encodeResult(message.target, () => streamItemMessage(id, step.value));
        await this.out.transmit(item);
      }
      this.post(encodeRecord(completionResult(id, undefined)));
    } catch (error) {
      if (!controller.signal.aborted) this.post(encodeRecord(completionError(id, this.errorText(message.target, error))));
    } finally {
      this.streams.delete(id);
      // Cancelled, failed to send, or failed: let the producer release what it holds.
      if (iterator && !exhausted) void closeIterator(iterator);
    }
  }

  /** A value JSON cannot carry (BigInt, cycles) is a server fault, reported generically like any other. */
  private encodeResult(method: string, build: () => Record<string, unknown>): string {
    try {
      return encodeRecord(build());
    } catch (error) {
      throw new UnserializableResultError(method, error);
    }
  }

  private post(record: string): void {
    this.out.post(record);
  }
}

class UnserializableResultError extends Error {
  constructor(method: string, cause: unknown) {
    super(`The result of hub method '${method}' cannot be serialized as JSON.`, { cause });
    this.name = 'UnserializableResultError';
  }
}

async function closeIterator(iterator: AsyncIterator<unknown>): Promise<void> {
  try {
    await iterator.return?.();
  } catch {
    // A producer that fails while being stopped has nothing more to deliver.
  }
}
