/**
 * Per-client outbound flow control. Events queued for a client leave as one `events` message per flush
 * (a burst costs the browser one message and one parse, not one per event), flushes may be spaced so a
 * busy hub cannot flood the client with tiny messages, and a queue that overflows is dropped in favour of
 * one fresh snapshot once the client has drained. Memory per client stays bounded however slow it reads.
 * A snapshot with a long call log leaves in parts (`snapshotCalls`), so the browser parses it in short tasks.
 */
import type { ControlFrame } from '../contracts/index.js';
import type { SnapshotFrame } from './hub.js';
import { SNAPSHOT_CALLS_PER_PART, SNAPSHOT_FIRST_CALLS, snapshotParts } from './snapshot-parts.js';

export interface FrameSink {
  /** Writes one message; `done` runs once the bytes have left user space (or the write failed). */
  write(text: string, done: () => void): void;
}

export interface FrameSenderLimits {
  /** Messages written to the sink whose `done` has not run yet. */
  maxInFlight: number;
  /** Frames (events or snapshots) waiting to be written; one more and the client is resynced instead. */
  maxQueuedFrames: number;
  /** JSON characters of events one message may carry (a single larger event still goes alone). */
  maxBatchChars: number;
  /**
   * Least time between two flushes; events arriving meanwhile join the next message. 0 flushes once per
   * event-loop turn, which already coalesces more the busier the hub is, at no added latency.
   */
  flushIntervalMs: number;
  /** Calls a `snapshotCalls` part carries. */
  snapshotCallsPerMessage: number;
  /** Calls the snapshot message itself carries (the newest); the rest of the log follows in parts. */
  snapshotFirstCalls: number;
}

export const DEFAULT_FRAME_SENDER_LIMITS: FrameSenderLimits = { maxInFlight: 32, maxQueuedFrames: 4096, maxBatchChars: 64 * 1024, flushIntervalMs: 0, snapshotCallsPerMessage: SNAPSHOT_CALLS_PER_PART, snapshotFirstCalls: SNAPSHOT_FIRST_CALLS };

export interface FrameSenderStats {
  /** Messages written. */
  sent: number;
  /** Events written (inside batches or alone). */
  eventsSent: number;
  resyncs: number;
  /** Most frames ever waiting at once. */
  maxQueued: number;
}

/** Consecutive events serialised one by one as they arrive, so a flush only joins strings (an `EventBatchFrame`). */
interface PendingBatch {
  fromSeq: number;
  parts: string[];
  chars: number;
}

/** A message serialised when it was queued (a snapshot or one of its parts). */
type Outgoing = { message: string } | PendingBatch;

function batchMessage(batch: PendingBatch): string {
  if (batch.parts.length === 1) return `{"type":"event","seq":${batch.fromSeq},"event":${batch.parts[0]}}`;
  return `{"type":"events","fromSeq":${batch.fromSeq},"events":[${batch.parts.join(',')}]}`;
}

export class FrameSender {
  private inFlight = 0;
  private readonly queue: Outgoing[] = [];
  private queuedFrames = 0;
  private resyncing = false;
  private closed = false;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private flushTimer: { cancel(): void } | undefined;
  private readonly limits: FrameSenderLimits;
  readonly stats: FrameSenderStats = { sent: 0, eventsSent: 0, resyncs: 0, maxQueued: 0 };

  constructor(
    private readonly sink: FrameSink,
    private readonly freshSnapshot: () => SnapshotFrame,
    limits: Partial<FrameSenderLimits> = {},
  ) {
    this.limits = { ...DEFAULT_FRAME_SENDER_LIMITS, ...limits };
  }

  push(frame: ControlFrame): void {
    if (this.closed || this.resyncing) return;
    if (frame.type === 'snapshot') this.enqueueSnapshot(frame);
    else {
      this.enqueueEvent(frame.seq, JSON.stringify(frame.event));
      this.queuedFrames += 1;
    }
    if (this.queuedFrames > this.limits.maxQueuedFrames) {
      // Everything queued is covered by the snapshot sent after the drain, so it can go.
      this.queue.length = 0;
      this.queuedFrames = 0;
      this.resyncing = true;
      this.stats.resyncs += 1;
    }
    this.stats.maxQueued = Math.max(this.stats.maxQueued, this.queuedFrames);
    this.scheduleFlush();
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.queuedFrames = 0;
    this.flushTimer?.cancel();
    this.flushTimer = undefined;
  }

  /** Each part of a snapshot counts as one queued frame. */
  private enqueueSnapshot(frame: SnapshotFrame): void {
    const parts = snapshotParts(frame, this.limits.snapshotCallsPerMessage, this.limits.snapshotFirstCalls);
    for (const part of parts) this.queue.push({ message: JSON.stringify(part) });
    this.queuedFrames += parts.length;
  }

  private enqueueEvent(seq: number, part: string): void {
    const last = this.queue.at(-1);
    if (last && !('message' in last) && last.fromSeq + last.parts.length === seq && last.chars + part.length <= this.limits.maxBatchChars) {
      last.parts.push(part);
      last.chars += part.length;
      return;
    }
    this.queue.push({ fromSeq: seq, parts: [part], chars: part.length });
  }

  private scheduleFlush(): void {
    if (this.closed || this.flushTimer || this.inFlight >= this.limits.maxInFlight) return;
    if (this.queue.length === 0 && !(this.resyncing && this.inFlight === 0)) return;
    const wait = this.lastFlushAt + this.limits.flushIntervalMs - performance.now();
    if (wait > 0) {
      const timer = setTimeout(() => this.flush(), wait);
      this.flushTimer = { cancel: () => clearTimeout(timer) };
    } else {
      // Still deferred: events published in the same turn (one agent burst) join one message.
      const immediate = setImmediate(() => this.flush());
      this.flushTimer = { cancel: () => clearImmediate(immediate) };
    }
  }

  private flush(): void {
    this.flushTimer = undefined;
    this.lastFlushAt = performance.now();
    while (!this.closed && this.inFlight < this.limits.maxInFlight) {
      if (this.queue.length === 0) {
        if (!this.resyncing || this.inFlight > 0) return;
        this.resyncing = false;
        this.enqueueSnapshot(this.freshSnapshot());
      }
      const next = this.queue.shift();
      if (next === undefined) return;
      let text: string;
      if ('message' in next) {
        this.queuedFrames -= 1;
        text = next.message;
      } else {
        this.queuedFrames -= next.parts.length;
        this.stats.eventsSent += next.parts.length;
        text = batchMessage(next);
      }
      this.inFlight += 1;
      this.stats.sent += 1;
      this.sink.write(text, () => {
        this.inFlight -= 1;
        this.scheduleFlush();
      });
    }
  }
}
