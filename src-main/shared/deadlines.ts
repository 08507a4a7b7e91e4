/**
 * One timer for many deadlines. A call path that arms and clears a `setTimeout` per call pays a
 * timer object, a timer-list insert (a new list for every distinct duration, and remaining-time
 * deadlines are all distinct) and a ref toggle per call, almost always for a timer that never fires.
 * Here a deadline is a heap entry and one unref'd timer waits for the earliest. Cancelling never
 * touches the timer: it may fire with nothing due, and then re-arms for the earliest left (with
 * deadlines added in time order, that is once per deadline span, not once per call). Callbacks run
 * in deadline order.
 */
interface Entry {
  at: number;
  fire: () => void;
  /** Position in the heap, -1 once removed. */
  index: number;
}

export class Deadlines {
  private readonly heap: Entry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private readonly onTimer = (): void => this.expire();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Runs `fire` once `ms` have passed, unless the returned cancel function runs first. */
  after(ms: number, fire: () => void): () => void {
    const entry: Entry = { at: this.now() + Math.max(0, ms), fire, index: this.heap.length };
    this.heap.push(entry);
    this.up(entry.index);
    if (entry.at < this.timerAt) this.arm(entry.at);
    return () => this.remove(entry);
  }

  /** Deadlines waiting, for leak checks. */
  get size(): number {
    return this.heap.length;
  }

  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.now();
    const due: Entry[] = [];
    while (this.heap.length > 0 && this.heap[0]!.at <= now) {
      const entry = this.heap[0]!;
      this.remove(entry);
      due.push(entry);
    }
    // Re-armed before the callbacks run, so one that throws cannot strand the rest of the heap.
    if (this.heap.length > 0) this.arm(this.heap[0]!.at);
    for (const entry of due) entry.fire();
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    // Timers round to whole milliseconds and may fire a fraction early; expire() re-arms for any rest.
    this.timer = setTimeout(this.onTimer, Math.max(1, Math.ceil(at - this.now())));
    this.timer.unref();
  }

  private remove(entry: Entry): void {
    const index = entry.index;
    if (index < 0) return;
    entry.index = -1;
    const last = this.heap.pop()!;
    if (last !== entry) {
      this.heap[index] = last;
      last.index = index;
      this.down(index);
      this.up(last.index);
    }
  }

  private up(index: number): void {
    const heap = this.heap;
    const entry = heap[index]!;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex]!;
      if (parent.at <= entry.at) break;
      heap[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    heap[index] = entry;
    entry.index = index;
  }

  private down(index: number): void {
    const heap = this.heap;
    const entry = heap[index]!;
    const half = heap.length >> 1;
    while (index < half) {
      let child = 2 * index + 1;
      const right = child + 1;
      if (right < heap.length && heap[right]!.at < heap[child]!.at) child = right;
      if (heap[child]!.at >= entry.at) break;
      heap[index] = heap[child]!;
      heap[index]!.index = index;
      index = child;
    }
    heap[index] = entry;
    entry.index = index;
  }
}

/** The process's deadlines for calls in flight (plugin invocations, completions awaited). */
export const callDeadlines = new Deadlines();
