/**
 * The store's side of the writer thread: starts the worker, numbers requests, delivers replies in order
 * (as messages while the event loop runs, or pulled synchronously while the store waits for one).
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { SharedRows } from './shared-rows.js';
import { startAuditWorker } from './worker-start.js';
import type { WireBatch, WriterInit, WriterMessage, WriterNotice, WriterReply, WriterRequest } from './writer-protocol.js';
import type { AuditWriterOptions } from './writer.js';

type Request = WriterRequest extends infer R ? (R extends WriterRequest ? Omit<R, 'id'> : never) : never;
type OtherRequest = Exclude<Request, { op: 'write' }>;

/**
 * The writer's young generation, in MB (V8 splits it into two semi-spaces and room for large
 * objects). Left to itself the thread's isolate grows it to 8 MB resident under a stream of batches,
 * although a batch's objects die within that batch: 6 MB (2 MB semi-spaces) holds a 500-record
 * batch's garbage between scavenges.
 */
const WRITER_YOUNG_GENERATION_MB = 6;

export class WriterThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  private delivered = 0;
  private crashed: Error | undefined;
  private readonly rows = new SharedRows();
  /** Whether the worker holds the rows memory yet. */
  private rowsShared = false;
  /** Callers of `answered`, by the id whose reply they wait for. */
  private answerWaiters: Array<{ id: number; settle: (answered: boolean) => void }> = [];

  constructor(
    options: AuditWriterOptions,
    private readonly onReply: (reply: WriterReply) => void,
    onCrash: (error: Error) => void,
    private readonly onNotice: (notice: WriterNotice) => void = () => {},
  ) {
    const { port1, port2 } = new MessageChannel();
    const init: WriterInit = { options, port: port2, signal: this.signal };
    this.worker = startAuditWorker('writer-worker', { workerData: init, transferList: [port2], resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB } });
    this.port = port1;
    port1.on('message', (message: WriterMessage) => this.deliver(message));
    // Neither keeps the process alive: the store flushes synchronously before it closes.
    port1.unref();
    this.worker.unref();
    this.worker.on('error', (error) => {
      this.crashed = error;
      for (const { settle } of this.answerWaiters.splice(0)) settle(false);
      onCrash(error);
    });
  }

  get alive(): boolean {
    return this.crashed === undefined;
  }

  send(request: OtherRequest): number {
    const id = this.nextId++;
    this.port.postMessage({ ...request, id } as WriterRequest);
    return id;
  }

  /** Sends a batch to write: its calls' rows in the shared memory, the rest in the message. Only after the previous batch's reply. */
  sendBatch(calls: readonly string[], batch: Omit<WireBatch, 'calls'>, now: number): number {
    const id = this.nextId++;
    const { bytes, memory } = calls.length > 0 ? this.rows.write(calls, !this.rowsShared) : { bytes: 0 };
    if (memory) this.rowsShared = true;
    const request: WriterRequest = { id, op: 'write', batch: { ...batch, calls: bytes }, now, ...(memory ? { memory } : {}) };
    this.port.postMessage(request);
    return id;
  }

  /**
   * Blocks until the reply to `id` (and every earlier one) has been delivered; false when none came in
   * time, or when `stop` turned true after a message was delivered (a notice that the wait would be long).
   */
  waitFor(id: number, timeoutMs: number, stop: () => boolean = () => false): boolean {
    const deadline = Date.now() + timeoutMs;
    while (this.delivered < id && this.alive) {
      const seen = Atomics.load(this.signal, 0);
      const pulled = receiveMessageOnPort(this.port);
      if (pulled) {
        this.deliver(pulled.message as WriterMessage);
        if (stop()) break;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) return false;
      Atomics.wait(this.signal, 0, seen, Math.min(left, 1000));
    }
    return this.delivered >= id;
  }

  /** Resolves once the reply to `id` (and every earlier one) has been delivered, by message: false when none came in time or the thread crashed. */
  answered(id: number, timeoutMs: number): Promise<boolean> {
    if (this.delivered >= id) return Promise.resolve(true);
    if (!this.alive) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), timeoutMs);
      const settle = (answered: boolean) => {
        clearTimeout(timer);
        this.answerWaiters = this.answerWaiters.filter((waiter) => waiter.settle !== settle);
        resolve(answered);
      };
      this.answerWaiters.push({ id, settle });
    });
  }

  /** Whether the worker keeps the process alive (while it runs something that must not be cut short). */
  hold(on: boolean): void {
    if (on) this.worker.ref();
    else this.worker.unref();
  }

  terminate(): void {
    this.port.close();
    void this.worker.terminate();
    // No reply comes from a stopped thread: whoever waits for one goes on now, not at its timeout.
    for (const { settle } of this.answerWaiters.splice(0)) settle(false);
  }

  private deliver(message: WriterMessage): void {
    if ('notice' in message) {
      this.onNotice(message);
      return;
    }
    this.delivered = message.id;
    this.onReply(message);
    for (const waiter of this.answerWaiters.filter((w) => w.id <= this.delivered)) waiter.settle(true);
  }
}
