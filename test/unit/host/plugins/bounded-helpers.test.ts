import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { boundedCollection, effectiveLimit, limitSchema } from '../../../../plugins/host-api/index.js';

describe('bounded result helpers', () => {
  test('effectiveLimit resolves omitted and null limits to the default and keeps explicit values, including 0', () => {
    assert.equal(effectiveLimit(undefined, 50), 50);
    assert.equal(effectiveLimit(null, 50), 50);
    assert.equal(effectiveLimit(0, 50), 0);
    assert.equal(effectiveLimit(7, 50), 7);
  });

  test('effectiveLimit rejects negative requests and non-positive defaults', () => {
    assert.throws(() => effectiveLimit(-1, 50), RangeError);
    assert.throws(() => effectiveLimit(1.5, 50), RangeError);
    assert.throws(() => effectiveLimit(3, 0), RangeError);
    assert.throws(() => limitSchema(0), RangeError);
  });

  test('boundedCollection publishes already-bounded items and refuses more than the limit', () => {
    assert.deepEqual(boundedCollection(['a'], { limit: 1, hasMore: true, totalCount: 9 }), { items: ['a'], hasMore: true, totalCount: 9 });
    assert.deepEqual(boundedCollection([], { limit: 0, hasMore: true }), { items: [], hasMore: true });
    assert.throws(() => boundedCollection(['a', 'b'], { limit: 1, hasMore: false }), RangeError);
  });

  test('limitSchema is a nullable integer with minimum 0 and a published default', () => {
    const schema = z.object({ limit: limitSchema(25) });
    assert.deepEqual(schema.parse({}), { limit: 25 });
    assert.deepEqual(schema.parse({ limit: null }), { limit: null });
    assert.equal(schema.safeParse({ limit: -1 }).success, false);
    const json = z.toJSONSchema(schema, { io: 'input' }) as unknown as { properties: { limit: { default: number } }; required?: string[] };
    assert.equal(json.properties.limit.default, 25);
    assert.equal(json.required, undefined);
  });
});
