/**
 * Gives the heap back after a burst of calls. Under load V8 grows its young generation to its maximum
 * (32 MB resident) and lets the old generation fill with per-call objects that outlived a scavenge,
 * collecting them only at its next limit. Its memory reducer, which shrinks both once a process is
 * idle, judges idleness by the allocation rate averaged over the last ten collections, all of them
 * taken under the load, so after a burst it waits 30 to 100 s (measured: RSS stayed within a few MB
 * of its 200 MB peak for over 50 s after the bridge benchmark's load, with 30 MB of the heap live).
 *
 * So once calls have stopped for one to two `quietMs` periods, and only when the heap grew by at
 * least `minGrowthBytes` since the last collection here, one full collection runs (tens of
 * milliseconds, on an event loop that has had no call for seconds); V8 then shrinks the young
 * generation itself, its allocation rate being low. A steady trickle of calls grows the heap too
 * little to trigger it, and a busy Junction never sees it.
 *
 * Start-up leaves the same state behind (module loading and schema compilation grow the young
 * generation to its maximum), and the memory reducer's timing after it varies from run to run: a
 * Junction nobody called held 90 to 94 MB of RSS 15 s after start in some runs and 72 MB in others.
 * `afterStart` collects once the first quiet period has passed, whatever the heap's growth.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CallObserver } from '../../mcp/index.js';

export interface IdleHeapOptions {
  quietMs: number;
  minGrowthBytes: number;
  /** A full collection; V8's own (`gc`) unless a test supplies one. */
  collect?: () => void;
  heapBytes?: () => number;
}

/** V8's `gc` function: the flag exposes it to contexts created afterwards, so a fresh context hands it over. */
function v8Collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const totalHeapBytes = (): number => getHeapStatistics().total_heap_size;

export class IdleHeap {
  private calls = 0;
  private seen = 0;
  private timer: NodeJS.Timeout | undefined;
  private collector: (() => void) | undefined;
  private readonly heapBytes: () => number;
  private baseline: number;
  private collections = 0;
  /** The next quiet period collects whatever the heap's growth (the one after start). */
  private unconditional = false;

  constructor(private readonly options: IdleHeapOptions) {
    this.collector = options.collect;
    this.heapBytes = options.heapBytes ?? totalHeapBytes;
    this.baseline = this.heapBytes();
  }

  /** Counts finished calls: one increment on the call path, and a timer only while calls come. */
  readonly observer: CallObserver = {
    started() {},
    progress() {},
    finished: () => {
      this.calls++;
      this.watch();
    },
  };

  /** Collects once Junction has been quiet for a period after it started: start-up's garbage goes. */
  afterStart(): void {
    this.unconditional = true;
    this.watch();
  }

  /** How many times the heap was collected here. */
  get collected(): number {
    return this.collections;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.options.quietMs);
    this.timer.unref();
  }

  private tick(): void {
    if (this.calls !== this.seen) {
      this.seen = this.calls;
      return;
    }
    this.close();
    if (!this.unconditional && this.heapBytes() - this.baseline < this.options.minGrowthBytes) return;
    this.unconditional = false;
    this.collector ??= v8Collector();
    // The second pass compacts: it picks pages to empty by the live bytes the first one measured, and
    // releases them, where the first sees pages still full of the burst's garbage.
    this.collector();
    this.collector();
    this.collections++;
    this.baseline = this.heapBytes();
  }
}
