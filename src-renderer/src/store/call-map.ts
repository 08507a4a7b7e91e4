/**
 * The console's calls by id as an immutable value that shares its bulk between versions. Copying a
 * 10,000-entry Map on every applied batch (20 a second under load) allocated a ~230 KB hash table each time,
 * which V8 keeps in large-object space and frees only by major GCs: more than one a second, each pausing
 * the page. Here a version is a large `base` that is never modified plus a small `recent` overlay of
 * changes since; only the overlay is copied per batch, and it is folded into a new base once it grows.
 */
import type { CallView } from './types.js';

/** What views need of the calls: lookups by id (their order is `ConsoleData.callIds`). */
export interface CallLookup {
  get(callId: string): CallView | undefined;
}

/** The overlay is folded into the base once it holds this share of the base's entries (or a floor for small logs). */
const FOLD_RATIO = 0.25;
const FOLD_MIN = 256;

export class CallMap implements CallLookup {
  static readonly EMPTY = new CallMap(new Map(), new Map(), 0);

  /** `recent` maps an id to its new view, or to undefined when it was removed since `base`. */
  private constructor(
    private readonly base: ReadonlyMap<string, CallView>,
    private readonly recent: ReadonlyMap<string, CallView | undefined>,
    readonly size: number,
  ) {}

  static of(calls: Iterable<CallView>): CallMap {
    const base = new Map<string, CallView>();
    for (const call of calls) base.set(call.callId, call);
    return new CallMap(base, new Map(), base.size);
  }

  get(callId: string): CallView | undefined {
    return this.recent.has(callId) ? this.recent.get(callId) : this.base.get(callId);
  }

  has(callId: string): boolean {
    return this.get(callId) !== undefined;
  }

  /** A new version with `changes` applied (undefined removes an id); this one is left as it was. */
  with(changes: ReadonlyMap<string, CallView | undefined>): CallMap {
    if (changes.size === 0) return this;
    const recent = new Map(this.recent);
    let size = this.size;
    for (const [callId, call] of changes) {
      size += Number(call !== undefined) - Number(this.has(callId));
      recent.set(callId, call);
    }
    if (recent.size < Math.max(FOLD_MIN, this.base.size * FOLD_RATIO)) return new CallMap(this.base, recent, size);
    const base = new Map(this.base);
    for (const [callId, call] of recent) {
      if (call === undefined) base.delete(callId);
      else base.set(callId, call);
    }
    return new CallMap(base, new Map(), size);
  }
}
