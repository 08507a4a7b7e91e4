/**
 * Per-key token buckets (a key is an agent, a remote address, a token…). A bucket holds up to
 * `burst` tokens and refills at `ratePerSecond`. The key table is bounded: when full, the least
 * recently used key is forgotten, which only ever errs towards letting that key through again.
 */
import { JunctionError } from '../../contracts/index.js';
import { refuse, type Refusal } from '../refusal.js';

export interface RateLimiterOptions {
  ratePerSecond: number;
  burst: number;
  /** Most keys remembered at once (default 10,000). */
  maxKeys?: number;
  /** Monotonic milliseconds; injectable so tests drive time. */
  now?: () => number;
}

export type RateDecision = { ok: true; remaining: number } | (Refusal<'Overloaded'> & { retryAfterMs: number });

export interface RateLimiter {
  take(key: string, cost?: number): RateDecision;
  /** Keys currently remembered (bounded by maxKeys). */
  readonly size: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

function positive(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw new JunctionError('ConfigInvalid', `Rate limiter ${name} must be a positive number, got ${value}.`);
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { ratePerSecond, burst, maxKeys = 10_000, now = () => performance.now() } = options;
  positive('ratePerSecond', ratePerSecond);
  positive('burst', burst);
  positive('maxKeys', maxKeys);
  // Map iteration order is insertion order; re-inserting on every use makes the first key the LRU one.
  const buckets = new Map<string, Bucket>();

  function bucketFor(key: string, at: number): Bucket {
    const existing = buckets.get(key);
    if (existing) {
      buckets.delete(key);
      existing.tokens = Math.min(burst, existing.tokens + ((at - existing.updatedAt) / 1000) * ratePerSecond);
      existing.updatedAt = at;
      buckets.set(key, existing);
      return existing;
    }
    if (buckets.size >= maxKeys) {
      const oldest = buckets.keys().next();
      if (!oldest.done) buckets.delete(oldest.value);
    }
    const fresh = { tokens: burst, updatedAt: at };
    buckets.set(key, fresh);
    return fresh;
  }

  return {
    take(key, cost = 1) {
      const bucket = bucketFor(key, now());
      if (bucket.tokens >= cost) {
        bucket.tokens -= cost;
        return { ok: true, remaining: Math.floor(bucket.tokens) };
      }
      const retryAfterMs = Math.ceil(((cost - bucket.tokens) / ratePerSecond) * 1000);
      return { ...refuse('Overloaded', `Too many requests from ${key}: at most ${ratePerSecond}/s with bursts of ${burst}. Retry in ${retryAfterMs} ms.`), retryAfterMs };
    },
    get size() {
      return buckets.size;
    },
  };
}
