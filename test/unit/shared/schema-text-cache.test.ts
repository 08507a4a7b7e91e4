import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchemaTextCache } from '../../../src-main/shared/schema-text-cache.js';

/** A stand-in compiler that counts what it compiled, so the test sees when a compile happens. */
function countingCache(max?: number) {
  const compilers: string[][] = [];
  const cache = new SchemaTextCache(
    () => {
      const compiled: string[] = [];
      compilers.push(compiled);
      return compiled;
    },
    (compiled, schema) => {
      const text = JSON.stringify(schema);
      if (text.includes('broken')) throw new Error('cannot compile');
      compiled.push(text);
      return { validates: text };
    },
    max,
  );
  return { cache, compilers };
}

test('equal schemas sent as distinct objects are compiled once and share one validator', () => {
  const { cache, compilers } = countingCache();
  const first = cache.get({ type: 'object', required: ['a'] });
  const again = cache.get(structuredClone({ type: 'object', required: ['a'] }));
  assert.equal(again, first);
  assert.deepEqual(compilers, [['{"type":"object","required":["a"]}']]);
});

test('past the cap on distinct schemas a fresh compiler starts, so the old one and its own cache can go', () => {
  const { cache, compilers } = countingCache(3);
  for (let n = 0; n < 4; n++) cache.get({ const: n });
  assert.equal(compilers.length, 2);
  assert.equal(compilers[0]!.length, 3);
  assert.deepEqual(compilers[1], ['{"const":3}']);
  assert.equal(cache.size, 1);
});

test('a schema that fails to compile is not cached: it fails again, and does not take a place', () => {
  const { cache } = countingCache();
  assert.throws(() => cache.get({ broken: true }), /cannot compile/);
  assert.throws(() => cache.get({ broken: true }), /cannot compile/);
  assert.equal(cache.size, 0);
});
