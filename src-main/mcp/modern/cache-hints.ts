/**
 * `ttlMs` and `cacheScope` (SEP-2549) for list and read results, from the catalogue's real changes: a
 * list stays fresh for a minute while nothing has changed lately, and for seconds while plugins are
 * connecting, leaving or republishing (a list that changed recently is likely to change again). Lists
 * depend on the route's project and the policy's visibility rules, so they are never for shared caches.
 */
export const STABLE_TTL_MS = 60_000;
export const CHURN_TTL_MS = 5_000;

export interface CacheHint {
  ttlMs: number;
  cacheScope: 'private';
}

export class CacheHints {
  private changedAt = Number.NEGATIVE_INFINITY;
  private readonly offs: Array<() => void>;

  /** `sources` are the change events of everything a list result reflects. */
  constructor(sources: ReadonlyArray<((listener: () => void) => () => void) | undefined>, private readonly now: () => number = Date.now) {
    this.offs = sources.flatMap((on) => (on ? [on(() => (this.changedAt = this.now()))] : []));
  }

  list(): CacheHint {
    return { ttlMs: this.now() - this.changedAt < STABLE_TTL_MS ? CHURN_TTL_MS : STABLE_TTL_MS, cacheScope: 'private' };
  }

  /** A plugin may change a resource's content without announcing it, so a read promises no freshness. */
  read(): CacheHint {
    return { ttlMs: 0, cacheScope: 'private' };
  }

  close(): void {
    for (const off of this.offs) off();
  }
}
