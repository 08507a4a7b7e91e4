/**
 * The writer thread's lifecycle for the store: started on first use and again after a crash, resting
 * (stopped) once the store finds it idle a while after its last write, stopped at close. Whether a
 * thread may start (no retry waiting) and whether it may rest are the store's to say.
 */
import type { WriterNotice, WriterReply } from './writer-protocol.js';
import { WriterThread } from './writer-thread.js';
import type { AuditWriterOptions } from './writer.js';

/**
 * The writer thread is an isolate of its own with SQLite's caches, about 10 MB resident: it runs while
 * there is something to write and this long after, so a Junction nobody is calling does not keep it.
 * Restarting costs a few tens of milliseconds of the writer's time, never the caller's.
 */
const DEFAULT_REST_AFTER_MS = 30_000;
/** Longest a resting thread is waited for to close its connection before it is stopped. */
const REST_WAIT_MS = 1_000;

export interface WriterLifecycleOptions {
  writer: AuditWriterOptions;
  restAfterMs?: number;
  onReply: (reply: WriterReply) => void;
  onCrash: (error: Error) => void;
  onNotice: (notice: WriterNotice) => void;
}

export class WriterLifecycle {
  private thread: WriterThread | undefined;
  private restTimer: NodeJS.Timeout | undefined;
  private readonly restAfterMs: number;

  constructor(private readonly options: WriterLifecycleOptions) {
    this.restAfterMs = options.restAfterMs ?? DEFAULT_REST_AFTER_MS;
  }

  /** The thread now, alive or crashed, without starting one. */
  get current(): WriterThread | undefined {
    return this.thread;
  }

  get alive(): boolean {
    return this.thread?.alive ?? false;
  }

  /** The living thread, or a new one in place of a crashed one or none; throws when it cannot start. */
  start(): WriterThread {
    if (this.thread?.alive) return this.thread;
    this.stop();
    this.thread = new WriterThread(this.options.writer, this.options.onReply, this.options.onCrash, this.options.onNotice);
    return this.thread;
  }

  /** Calls `due` once the thread has had nothing to do for the rest interval (again from now on each call). */
  scheduleRest(due: () => void): void {
    if (!this.thread) return;
    this.clearRest();
    this.restTimer = setTimeout(() => {
      this.restTimer = undefined;
      due();
    }, this.restAfterMs);
    this.restTimer.unref();
  }

  clearRest(): void {
    if (this.restTimer) clearTimeout(this.restTimer);
    this.restTimer = undefined;
  }

  /** Stops an idle thread after it closes its connection; the next `start` starts a new one. */
  rest(): void {
    const writer = this.thread;
    if (!writer) return;
    // An idle thread answers at once; one that does not is stopped all the same, without blocking for long.
    writer.waitFor(writer.send({ op: 'close' }), REST_WAIT_MS);
    this.stop();
  }

  /** Stops the thread now, whatever it is doing. */
  stop(): void {
    this.thread?.terminate();
    this.thread = undefined;
  }
}
