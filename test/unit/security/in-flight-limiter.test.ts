import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createInFlightLimiter } from '../../../src-main/security/index.js';

describe('createInFlightLimiter', () => {
  test('admits up to maxPerKey, then refuses with 429 Overloaded until a slot is released', () => {
    const limiter = createInFlightLimiter({ maxPerKey: 2 });
    const first = limiter.acquire('agent');
    const second = limiter.acquire('agent');
    assert.ok(first.ok && second.ok);
    const third = limiter.acquire('agent');
    assert.ok(!third.ok);
    assert.equal(third.status, 429);
    assert.equal(third.code, 'Overloaded');
    first.release();
    assert.equal(limiter.acquire('agent').ok, true);
  });

  test('release is idempotent and keys are independent', () => {
    const limiter = createInFlightLimiter({ maxPerKey: 1 });
    const slot = limiter.acquire('a');
    assert.ok(slot.ok);
    assert.equal(limiter.acquire('b').ok, true);
    slot.release();
    slot.release();
    assert.equal(limiter.inFlight('a'), 0);
    const again = limiter.acquire('a');
    assert.ok(again.ok);
    assert.equal(limiter.acquire('a').ok, false, 'a double release must not free a second slot');
  });
});
