/**
 * Gives the heap back after a burst of calls (or of plugins connecting: `worked`). Under load V8 grows
 * its young generation to its maximum (32 MB resident) and lets the old generation fill with per-call
 * objects that outlived a scavenge, collecting them only at its next limit. Its memory reducer, which
 * shrinks both once a process is idle, judges idleness by the allocation rate averaged over the last
 * ten collections, all of them taken under the load, so after a burst it waits 30 to 100 s (measured:
 * RSS stayed within a few MB of its 200 MB peak for over 50 s after the bridge benchmark's load, with
 * 30 MB of the heap live).
 *
 * So once calls have stopped for one to two `quietMs` periods, and only when the heap (with what V8
 * holds outside it, below) grew by at least `minGrowthBytes` since the last collection here, one full
 * collection runs: 15 to 16 ms in a Junction with the demo workspace, on an event loop that has had
 * no call for seconds. It frees the old generation's garbage; whether V8 also shrinks the young
 * generation then is its own call: after start it did (below), but two quiet periods after 1,000
 * plugins connected Junction still held 63.5 KB of RSS per plugin (34 to 36 KB when this collection
 * walked the heap, above `collectFull`). A steady trickle of calls grows the heap too little to
 * trigger it, and a busy Junction never sees it.
 *
 * Start-up leaves the same state behind (module loading and schema compilation grow the young
 * generation to its maximum). `afterStart` collects `settleMs` after start, once start-up's work is
 * done, and again once the first quiet period has passed, whatever the heap's growth. The first frees
 * what start-up left in the old generation; the young generation goes at the second, when allocation
 * has been quiet. Measured, no workspace, RSS after ready (three runs): 85 to 86 MB from 2 to 9 s,
 * 68 MB at 15 s.
 *
 * A large call (arguments and result of `largeCallBytes` or more) is different: its payload is held
 * as ArrayBuffers (the socket's reads, the message or body they make) and as the text decoded from
 * those bytes, much of it outside the heap V8 paces its collections by; V8 looks at that memory only
 * after 64 MB of it has grown. Under 16 MB calls dead payloads piled up: 3 to 12 MB of RSS per MB in
 * flight, V8's heap at 25 MB throughout (the bridge benchmark's large payloads). What holds each
 * ArrayBuffer, and UTF-8 text (decoded onto the heap), is an object in the young generation, so the
 * turn after such a call a scavenge (a millisecond or two) frees them. A full collection frees more
 * but took a quarter of a 16 MB call's CPU time under load; the threshold keeps small calls, whose cost
 * even a scavenge would be a share of, out. Several calls finishing in the same turn share one.
 *
 * A long ASCII string (base64: a screenshot) is decoded as an external string (shared/json-bytes.ts),
 * which V8 allocates in the old generation from about 1 MB on, so no scavenge frees it (measured: a dead
 * 16 MB one outlived three scavenges and went at the first full collection). So growth is measured
 * as the heap plus the memory V8 holds outside it: a burst of 1 MB screenshots, which grows the heap
 * itself little, still has its text given back once the burst is over.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CallObserver } from '../../mcp/index.js';

export interface IdleHeapOptions {
  quietMs: number;
  minGrowthBytes: number;
  /** How long after start the first collection runs. */
  settleMs: number;
  /** A full collection; V8's unless a test supplies one. */
  collect?: () => void;
  /** A call whose arguments and result together are this many bytes or more is followed by a collection. */
  largeCallBytes: number;
  /** The collection after a large call; V8's scavenge unless a test supplies one. */
  collectAfterLarge?: () => void;
  /** What a collection would give back, measured for the growth; the heap and V8's external memory unless a test supplies it. */
  heldBytes?: () => number;
}

/**
 * Junction's settings. After a burst of calls (or of plugins connecting), the heap is collected once
 * they have stopped for 10 to 20 s and it grew by 16 MB: a quiet period long enough that a burst is
 * over. After start it is collected 1 s in, when start-up's work is done, and again once the first
 * quiet period has passed. A call that moved 8 MiB or more is followed by a scavenge at once: its
 * payload lives outside the heap V8 paces itself by, and a scavenge is a negligible share of such a
 * call, not of a 1 MB one.
 */
export const IDLE_HEAP: IdleHeapOptions = { quietMs: 10_000, minGrowthBytes: 16 * 1024 * 1024, settleMs: 1000, largeCallBytes: 8 * 1024 * 1024 };

let exposedGc: ((options?: { type: 'major' | 'minor' }) => void) | undefined;

/**
 * V8's `gc`. `--expose-gc` set at run time installs it only in contexts created afterwards, so one
 * context is made to take it from, and the flag is cleared again so that no later context (a vm
 * sandbox) sees a `gc` of its own.
 */
function v8Gc(): (options?: { type: 'major' | 'minor' }) => void {
  if (!exposedGc) {
    setFlagsFromString('--expose-gc');
    try {
      exposedGc = runInNewContext('gc') as typeof exposedGc;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  return exposedGc!;
}

/**
 * A full collection: 15 to 16 ms in a Junction with the demo workspace (heap 15 to 18 MB).
 * `v8.queryObjects`, which used to force V8's "all available garbage" collection here because that
 * shrinks the young generation at any time, walks every object on the heap to count them: 257 to 377 ms
 * on Junction's event loop on an idle machine, and seconds in a process with a larger heap, where it
 * held a plugin's calls past their deadline. Without it the young generation start-up grew stays until
 * the first quiet period's collection (85 MB of RSS at 2 s where it was 74; 68 MB at 15 s where it was 74).
 */
function collectFull(): void {
  // Without options: `gc({ type: 'major' })` left most of a dead 300,000-object array in place (Node 20).
  v8Gc()();
}

/** V8's young-generation collection: a millisecond or two. */
function collectYoung(): void {
  v8Gc()({ type: 'minor' });
}

/** The heap and what V8 holds outside it (external strings, ArrayBuffers): both are what a collection gives back. */
export function heldBytes(): number {
  const heap = getHeapStatistics();
  return heap.total_heap_size + heap.external_memory;
}

export class IdleHeap {
  /** Calls finished and other work done (`worked`), counted to tell a quiet period. */
  private work = 0;
  private seen = 0;
  private timer: NodeJS.Timeout | undefined;
  private settling: NodeJS.Timeout | undefined;
  private readonly collector: () => void;
  private readonly largeCollector: () => void;
  /** Set while a collection after a large call waits for the next turn. */
  private afterLarge: NodeJS.Immediate | undefined;
  private readonly held: () => number;
  private baseline: number;
  private collections = 0;
  /** The next quiet period collects whatever the heap's growth (the one after start). */
  private unconditional = false;

  constructor(private readonly options: IdleHeapOptions) {
    this.collector = options.collect ?? collectFull;
    this.largeCollector = options.collectAfterLarge ?? collectYoung;
    this.held = options.heldBytes ?? heldBytes;
    this.baseline = this.held();
  }

  /**
   * Counts finished calls: one increment and one comparison on the call path, and a timer only while
   * calls come. A large call's collection waits for the next turn, once its answer has been handed to
   * the socket (observers hear of a call before it is answered) and its payload is garbage.
   */
  readonly observer: CallObserver = {
    started() {},
    progress() {},
    finished: (call) => {
      if (call.requestBytes + (call.responseBytes ?? 0) >= this.options.largeCallBytes) this.afterLarge ??= setImmediate(this.collectAfterLarge);
      this.worked();
    },
  };

  /**
   * Work other than a call that leaves garbage the same way: a plugin's handshake and catalogue, or its
   * departure. A thousand projects connecting left Junction's RSS about 70 MB above what they hold (the
   * young generation at its maximum, the old one full of handshakes' leftovers): 94 to 105 KB per
   * plugin, against 27 to 37 KB with V8's young generation held to 1 MB.
   */
  worked(): void {
    this.work++;
    this.watch();
  }

  /** Leaves the quiet period's baseline alone: a scavenge keeps the young generation's size, which that collection gives back. */
  private readonly collectAfterLarge = (): void => {
    this.afterLarge = undefined;
    this.largeCollector();
    this.collections++;
  };

  /** Collects `settleMs` after start and once Junction has been quiet for a period after it: start-up's garbage goes. */
  afterStart(): void {
    this.settling = setTimeout(() => this.collect(), this.options.settleMs);
    this.settling.unref();
    this.unconditional = true;
    this.watch();
  }

  /** How many times the heap was collected here. */
  get collected(): number {
    return this.collections;
  }

  close(): void {
    clearTimeout(this.settling);
    clearImmediate(this.afterLarge);
    this.stopWatching();
  }

  private stopWatching(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.options.quietMs);
    this.timer.unref();
  }

  private tick(): void {
    if (this.work !== this.seen) {
      this.seen = this.work;
      return;
    }
    this.stopWatching();
    if (!this.unconditional && this.held() - this.baseline < this.options.minGrowthBytes) return;
    this.unconditional = false;
    this.collect();
  }

  private collect(): void {
    this.collector();
    this.collections++;
    this.baseline = this.held();
  }
}
