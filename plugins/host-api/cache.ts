/**
 * Optional reuse of intermediate results within one invocation (one snapshot, plugin and tool).
 * Correctness must never depend on a value being retained.
 */

/** A key is plain JSON data holding every semantic input that changes the result; object key order is irrelevant. */
export type QueryCacheKey = string | number | boolean | null | readonly QueryCacheKey[] | { readonly [key: string]: QueryCacheKey };

export interface QueryCacheOptions {
  /** Cancels only this caller's wait; the shared computation keeps running for other callers. */
  signal?: AbortSignal;
}

export interface QueryResultCache {
  /**
   * The cached value for `key`, or the result of `factory`. Identical concurrent misses share one
   * computation. Failures are never cached; null and undefined results are returned but not retained.
   * Treat returned values as immutable: every caller may receive the same reference.
   */
  getOrCreate<T>(key: QueryCacheKey, factory: (signal: AbortSignal) => T | Promise<T>, options?: QueryCacheOptions): Promise<T>;
}
