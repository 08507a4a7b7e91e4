/** A fixed-capacity FIFO (ring buffer) that never grows: when full it drops by policy and counts it. */
import { JunctionError } from '../../contracts/index.js';

export type DropPolicy = 'drop-oldest' | 'drop-newest';

export interface QueueCounters {
  enqueued: number;
  dequeued: number;
  dropped: number;
}

export class BoundedQueue<T> {
  private readonly slots: (T | undefined)[];
  private head = 0;
  private length = 0;
  private readonly counts: QueueCounters = { enqueued: 0, dequeued: 0, dropped: 0 };

  constructor(
    readonly capacity: number,
    readonly dropPolicy: DropPolicy,
  ) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new JunctionError('ConfigInvalid', `Queue capacity must be a positive integer, got ${capacity}.`);
    this.slots = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.length;
  }

  get dropped(): number {
    return this.counts.dropped;
  }

  get counters(): Readonly<QueueCounters> {
    return { ...this.counts };
  }

  /** Returns false when the pushed item itself was dropped (drop-newest on a full queue). */
  push(item: T): boolean {
    if (this.length === this.capacity) {
      this.counts.dropped++;
      if (this.dropPolicy === 'drop-newest') return false;
      this.slots[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
      this.length--;
    }
    this.slots[(this.head + this.length) % this.capacity] = item;
    this.length++;
    this.counts.enqueued++;
    return true;
  }

  shift(): T | undefined {
    if (this.length === 0) return undefined;
    const item = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.length--;
    this.counts.dequeued++;
    return item;
  }

  /** Discards everything queued; discarded items count as dropped. Returns how many there were. */
  clear(): number {
    const discarded = this.length;
    this.slots.fill(undefined);
    this.head = 0;
    this.length = 0;
    this.counts.dropped += discarded;
    return discarded;
  }
}
