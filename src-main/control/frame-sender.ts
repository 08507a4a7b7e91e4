/**
 * Per-client outbound flow control. Frames go straight to the socket while few writes are outstanding;
 * beyond that they queue, and a queue that overflows is dropped in favour of one fresh snapshot once the
 * client has drained. Memory per client stays bounded however slow it reads.
 */
import type { ControlFrame } from './api.js';
import type { SnapshotFrame } from './hub.js';

export interface FrameSink {
  /** Writes one frame; `done` runs once the bytes have left user space (or the write failed). */
  write(text: string, done: () => void): void;
}

export interface FrameSenderLimits {
  maxInFlight: number;
  maxQueuedFrames: number;
}

export const DEFAULT_FRAME_SENDER_LIMITS: FrameSenderLimits = { maxInFlight: 256, maxQueuedFrames: 2048 };

export interface FrameSenderStats {
  sent: number;
  resyncs: number;
  maxQueued: number;
}

export class FrameSender {
  private inFlight = 0;
  private readonly queue: string[] = [];
  private resyncing = false;
  private closed = false;
  readonly stats: FrameSenderStats = { sent: 0, resyncs: 0, maxQueued: 0 };

  constructor(
    private readonly sink: FrameSink,
    private readonly freshSnapshot: () => SnapshotFrame,
    private readonly limits: FrameSenderLimits = DEFAULT_FRAME_SENDER_LIMITS,
  ) {}

  push(frame: ControlFrame): void {
    if (this.closed || this.resyncing) return;
    this.queue.push(JSON.stringify(frame));
    if (this.queue.length > this.limits.maxQueuedFrames) {
      // Everything queued is covered by the snapshot sent after the drain, so it can go.
      this.queue.length = 0;
      this.resyncing = true;
      this.stats.resyncs += 1;
    }
    this.stats.maxQueued = Math.max(this.stats.maxQueued, this.queue.length);
    this.pump();
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private pump(): void {
    while (!this.closed && this.inFlight < this.limits.maxInFlight) {
      let text = this.queue.shift();
      if (text === undefined) {
        if (!this.resyncing || this.inFlight > 0) return;
        this.resyncing = false;
        text = JSON.stringify(this.freshSnapshot());
      }
      this.inFlight += 1;
      this.stats.sent += 1;
      this.sink.write(text, () => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }
}
