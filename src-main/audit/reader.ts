/**
 * The store's side of the reader thread (`reader-worker.ts`): started with the first read, answers by
 * message (the caller awaits, its event loop free), stopped after a while without reads, and started
 * again after a crash. While a read is outstanding the thread keeps the process alive; otherwise it does
 * not.
 */
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { ExportChunk, ReaderInit, ReaderOp, ReaderOps, ReaderReply, ReaderRequest } from './reader-protocol.js';
import { startAuditWorker } from './worker-start.js';
import { toError } from './writer-protocol.js';

/** Like the writer, the reader is an isolate of its own with SQLite's caches: it stays this long after its last read. */
const DEFAULT_REST_AFTER_MS = 30_000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

class ReaderThread {
  readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(path: string, onExit: (thread: ReaderThread) => void) {
    const { port1, port2 } = new MessageChannel();
    const init: ReaderInit = { path, port: port2 };
    this.worker = startAuditWorker('reader-worker', { workerData: init, transferList: [port2] });
    this.port = port1;
    port1.on('message', (reply: ReaderReply) => this.deliver(reply));
    port1.unref();
    this.worker.unref();
    const stopped = (error: Error) => {
      this.failure ??= error;
      for (const { reject } of this.pending.values()) reject(this.failure);
      this.pending.clear();
      onExit(this);
    };
    this.worker.on('error', stopped);
    this.worker.on('exit', () => stopped(new Error('the audit reader thread stopped')));
  }

  get idle(): boolean {
    return this.pending.size === 0;
  }

  request<K extends ReaderOp>(op: K, args: ReaderOps[K]['args']): Promise<ReaderOps[K]['value']> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<ReaderOps[K]['value']>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // An answer awaited keeps the process alive until it comes, as any I/O would.
      this.port.ref();
      this.port.postMessage({ ...args, op, id } as ReaderRequest);
    });
  }

  terminate(): void {
    this.failure ??= new Error('the audit reader thread was stopped');
    this.port.close();
    void this.worker.terminate();
  }

  private deliver(reply: ReaderReply): void {
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.port.unref();
    if (!waiting) return;
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(toError(reply.error));
  }
}

export class AuditReader {
  private thread: ReaderThread | undefined;
  private restTimer: NodeJS.Timeout | undefined;
  /** Exports still open: their cursors live in the thread, which must not rest under them (a slow download may pause long). */
  private readonly cursors = new Set<number>();

  constructor(
    private readonly path: string,
    private readonly restAfterMs = DEFAULT_REST_AFTER_MS,
  ) {}

  get running(): boolean {
    return this.thread !== undefined;
  }

  /** Sends `op` to the thread (started if needed) and resolves with its answer; rejects with the error it threw. */
  async request<K extends ReaderOp>(op: K, args: ReaderOps[K]['args']): Promise<ReaderOps[K]['value']> {
    this.clearRest();
    this.thread ??= new ReaderThread(this.path, (thread) => {
      if (this.thread === thread) this.thread = undefined;
    });
    const cursor = 'cursor' in args ? (args.cursor as number) : undefined;
    try {
      const value = await this.thread.request(op, args);
      if (op === 'export') this.cursors.add(value as number);
      else if (cursor !== undefined && (op === 'end' || (value as ExportChunk).done)) this.cursors.delete(cursor);
      return value;
    } catch (error) {
      if (cursor !== undefined) this.cursors.delete(cursor);
      throw error;
    } finally {
      this.scheduleRest();
    }
  }

  /** Stops the thread now (the database is not open for reading any more); the next read starts another. */
  stop(): void {
    this.clearRest();
    this.cursors.clear();
    this.thread?.terminate();
    this.thread = undefined;
  }

  /** Closes the thread's connections, then stops it. */
  async close(): Promise<void> {
    this.clearRest();
    const thread = this.thread;
    if (!thread) return;
    try {
      await thread.request('close', {});
    } catch {
      // A thread that cannot close its connections is stopped all the same.
    }
    this.stop();
  }

  private scheduleRest(): void {
    if (!this.thread) return;
    this.clearRest();
    this.restTimer = setTimeout(() => {
      this.restTimer = undefined;
      if (this.thread?.idle && this.cursors.size === 0) void this.close();
    }, this.restAfterMs);
    this.restTimer.unref();
  }

  private clearRest(): void {
    if (this.restTimer) clearTimeout(this.restTimer);
    this.restTimer = undefined;
  }
}
