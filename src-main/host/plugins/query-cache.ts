/**
 * The per-invocation query-result cache. Keys are canonical JSON (object keys sorted), so two callers
 * naming the same inputs share an entry; identical concurrent misses share one computation; a failure
 * is delivered to its waiters and then forgotten.
 */
import type { QueryCacheKey, QueryCacheOptions, QueryResultCache } from '../../../plugins/host-api/index.js';

function canonical(value: unknown, path: string): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`query cache key: ${path} is a non-finite number`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v, i) => canonical(v, `${path}[${i}]`)).join(',')}]`;
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw new TypeError(`query cache key: ${path} is not plain data`);
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], `${path}.${k}`)}`);
    return `{${entries.join(',')}}`;
  }
  throw new TypeError(`query cache key: ${path} is ${typeof value}, not JSON data`);
}

/** The canonical string form of a key; throws TypeError for anything that is not plain JSON data. */
export function canonicalCacheKey(key: QueryCacheKey): string {
  return canonical(key, '$');
}

function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** `computationSignal` is handed to every factory: the invocation's own cancellation. */
export function createQueryCache(computationSignal: AbortSignal): QueryResultCache {
  const entries = new Map<string, Promise<unknown>>();
  return {
    getOrCreate<T>(key: QueryCacheKey, factory: (signal: AbortSignal) => T | Promise<T>, options?: QueryCacheOptions): Promise<T> {
      let id: string;
      try {
        id = canonicalCacheKey(key);
      } catch (error) {
        return Promise.reject(error);
      }
      let entry = entries.get(id) as Promise<T> | undefined;
      if (!entry) {
        const computed = Promise.resolve().then(() => factory(computationSignal));
        entries.set(id, computed);
        computed.then(
          (value) => {
            if (value === null || value === undefined) entries.delete(id);
          },
          () => entries.delete(id),
        );
        entry = computed;
      }
      return waitFor(entry, options?.signal);
    },
  };
}
