import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalCacheKey, createQueryCache } from '../../../../src-main/host/plugins/index.js';

const never = new AbortController().signal;

describe('per-invocation query cache', () => {
  test('identical concurrent misses share one computation, whatever the key order', async () => {
    const cache = createQueryCache(never);
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const factory = async () => {
      runs++;
      await gate;
      return { value: 7 };
    };
    const first = cache.getOrCreate({ path: 'a.ts', depth: 2 }, factory);
    const second = cache.getOrCreate({ depth: 2, path: 'a.ts' }, factory);
    release();
    const [a, b] = await Promise.all([first, second]);
    assert.equal(runs, 1);
    assert.equal(a, b);
    assert.deepEqual(await cache.getOrCreate({ path: 'a.ts', depth: 2 }, factory), { value: 7 });
    assert.equal(runs, 1, 'a settled value is reused');
  });

  test('different keys compute separately', async () => {
    const cache = createQueryCache(never);
    let runs = 0;
    await cache.getOrCreate(['x', 1], () => ++runs);
    await cache.getOrCreate(['x', 2], () => ++runs);
    assert.equal(runs, 2);
  });

  test('a failure reaches every waiter of that computation and is not cached', async () => {
    const cache = createQueryCache(never);
    let runs = 0;
    const failing = async () => {
      runs++;
      throw new Error('boom');
    };
    const results = await Promise.allSettled([cache.getOrCreate('k', failing), cache.getOrCreate('k', failing)]);
    assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
    assert.equal(runs, 1);
    assert.equal(await cache.getOrCreate('k', () => 'recovered'), 'recovered');
  });

  test('null and undefined results are returned but not retained', async () => {
    const cache = createQueryCache(never);
    let runs = 0;
    assert.equal(await cache.getOrCreate('n', () => (runs++, null)), null);
    assert.equal(await cache.getOrCreate('n', () => (runs++, null)), null);
    assert.equal(runs, 2);
  });

  test("cancelling one caller stops only that caller's wait; the factory sees the shared signal", async () => {
    const shared = new AbortController();
    const cache = createQueryCache(shared.signal);
    let seen: AbortSignal | undefined;
    let release!: (v: string) => void;
    const factory = (signal: AbortSignal) => {
      seen = signal;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const caller = new AbortController();
    const cancelled = cache.getOrCreate('slow', factory, { signal: caller.signal });
    const patient = cache.getOrCreate('slow', factory);
    await Promise.resolve();
    caller.abort(new Error('caller gave up'));
    await assert.rejects(cancelled, /caller gave up/);
    release('done');
    assert.equal(await patient, 'done');
    assert.equal(seen, shared.signal);
  });

  test('keys must be plain JSON data', async () => {
    const cache = createQueryCache(never);
    await assert.rejects(cache.getOrCreate({ when: new Date() } as never, () => 1), TypeError);
    await assert.rejects(cache.getOrCreate(Number.NaN, () => 1), TypeError);
    assert.equal(canonicalCacheKey({ b: [1, { d: true, c: null }], a: 'x' }), '{"a":"x","b":[1,{"c":null,"d":true}]}');
  });
});
