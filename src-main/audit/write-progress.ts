/**
 * How far the writer has got through the store's queue, for the console's reads: a count of records
 * queued against those that left the queue (written or dropped), and the readers waiting for the second
 * to reach the first as it stood when they asked. Pure: replies move it, nothing blocks.
 */
export class WriteProgress {
  private entered = 0;
  private left = 0;
  private waiters: Array<{ target: number; resolve: () => void }> = [];

  /** Whether a reader waits for a write. */
  get waiting(): boolean {
    return this.waiters.length > 0;
  }

  /** `count` records entered the queue. */
  queued(count: number): void {
    this.entered += count;
  }

  /** `count` records left the queue, written or dropped; true when readers were waiting (some may have gone on). */
  handled(count: number): boolean {
    this.left += count;
    if (this.waiters.length === 0) return false;
    const waiting = this.waiters;
    this.waiters = waiting.filter((waiter) => waiter.target > this.left);
    for (const waiter of waiting) if (waiter.target <= this.left) waiter.resolve();
    return true;
  }

  /** Resolves once every record queued so far has left the queue; undefined when all have already. */
  wait(): Promise<void> | undefined {
    const target = this.entered;
    if (this.left >= target) return undefined;
    return new Promise<void>((resolve) => this.waiters.push({ target, resolve }));
  }

  /** Every waiting reader goes on now. */
  release(): void {
    for (const { resolve } of this.waiters.splice(0)) resolve();
  }
}
