/** Bounded collections: the limit is applied while producing items, never after building them all. */
export interface Bounded<T> {
  items: T[];
  hasMore: boolean;
  totalCount?: number;
}

/** Takes at most `limit` items from `source`, reading one more to learn whether more exist. */
export function takeBounded<T>(source: Iterable<T>, limit: number): Bounded<T> {
  const items: T[] = [];
  let hasMore = false;
  for (const item of source) {
    if (items.length >= limit) {
      hasMore = true;
      break;
    }
    items.push(item);
  }
  return { items, hasMore };
}

/** Bounds an already-counted source: only the first `limit` entries are mapped. */
export function boundCounted<S, T>(source: readonly S[], limit: number, map: (item: S) => T): Bounded<T> {
  return { items: source.slice(0, limit).map(map), hasMore: source.length > limit, totalCount: source.length };
}
