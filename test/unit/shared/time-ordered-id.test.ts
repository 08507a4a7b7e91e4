import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { timeOrderedId } from '../../../src-main/shared/time-ordered-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  test('is a UUID of version 7 whose first 48 bits are the milliseconds', () => {
    const now = Date.UTC(2026, 11, 3, 9, 0, 0);
    const id = timeOrderedId(now + 10_000);
    assert.match(id, UUID_V7);
    assert.equal(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), now + 10_000);
  });

  test('sorts in the order made, as text, within one millisecond, past the counter and when the clock steps back', () => {
    const start = Date.now() + 60_000;
    const clock = [
      ...Array.from({ length: 5000 }, () => start),
      ...Array.from({ length: 100 }, (_, i) => start + 1 + i),
      ...Array.from({ length: 100 }, () => start - 30_000),
    ];
    const ids = clock.map((now) => timeOrderedId(now));
    assert.ok(ids.every((id) => UUID_V7.test(id)));
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual([...ids].sort(), ids);
  });

  test('differs in its random bits between ids of one millisecond', () => {
    const now = Date.now() + 120_000;
    const tails = new Set(Array.from({ length: 200 }, () => timeOrderedId(now).slice(19)));
    assert.equal(tails.size, 200);
  });
});
