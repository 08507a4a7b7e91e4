/**
 * Bounded results: a collection tool stops its work at the limit and publishes the already-bounded items
 * with `hasMore` and, when cheap, `totalCount`. These helpers keep that contract in one place.
 */
import { z } from 'zod';

export interface BoundedCollection<T> {
  items: T[];
  hasMore: boolean;
  totalCount?: number;
}

/**
 * Wraps items the plugin has already bounded. Throws when `items` exceeds `limit`, because a bound applied
 * after the work was done is no bound at all.
 */
export function boundedCollection<T>(items: readonly T[], options: { limit: number; hasMore: boolean; totalCount?: number }): BoundedCollection<T> {
  if (items.length > options.limit) throw new RangeError(`boundedCollection: ${items.length} items exceed the limit ${options.limit}; stop the work at the limit.`);
  const out: BoundedCollection<T> = { items: [...items], hasMore: options.hasMore };
  if (options.totalCount !== undefined) out.totalCount = options.totalCount;
  return out;
}

/** The requested limit, or the tool's positive default when the caller omitted it or sent null. */
export function effectiveLimit(requested: number | null | undefined, defaultLimit: number): number {
  if (!Number.isInteger(defaultLimit) || defaultLimit <= 0) throw new RangeError(`effectiveLimit: the default must be a positive integer, got ${defaultLimit}.`);
  if (requested === null || requested === undefined) return defaultLimit;
  if (!Number.isInteger(requested) || requested < 0) throw new RangeError(`effectiveLimit: a requested limit must be a non-negative integer, got ${requested}.`);
  return requested;
}

/** The request property every collection tool declares: nullable integer, minimum 0, positive published default. */
export function limitSchema(defaultLimit: number) {
  effectiveLimit(undefined, defaultLimit);
  return z.number().int().min(0).nullable().default(defaultLimit).describe('Most items to return; 0 returns none.');
}

/** The response property shape of one bounded collection. */
export function boundedCollectionSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), hasMore: z.boolean(), totalCount: z.number().int().min(0).optional() });
}
