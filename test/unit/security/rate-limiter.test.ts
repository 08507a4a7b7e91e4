import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRateLimiter } from '../../../src-main/security/index.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('createRateLimiter', () => {
  test('allows a burst, then refuses with 429 Overloaded and a retry hint', () => {
    const time = clock();
    const limiter = createRateLimiter({ ratePerSecond: 2, burst: 3, now: time.now });
    for (let i = 0; i < 3; i++) assert.equal(limiter.take('agent-a').ok, true);
    const refused = limiter.take('agent-a');
    assert.ok(!refused.ok);
    assert.equal(refused.status, 429);
    assert.equal(refused.code, 'Overloaded');
    assert.equal(refused.retryAfterMs, 500);
  });

  test('refills at the configured rate and never above the burst', () => {
    const time = clock();
    const limiter = createRateLimiter({ ratePerSecond: 2, burst: 3, now: time.now });
    for (let i = 0; i < 3; i++) limiter.take('k');
    time.advance(500);
    assert.equal(limiter.take('k').ok, true);
    assert.equal(limiter.take('k').ok, false);
    time.advance(60_000);
    for (let i = 0; i < 3; i++) assert.equal(limiter.take('k').ok, true, `token ${i}`);
    assert.equal(limiter.take('k').ok, false);
  });

  test('keys are independent', () => {
    const time = clock();
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 1, now: time.now });
    assert.equal(limiter.take('a').ok, true);
    assert.equal(limiter.take('a').ok, false);
    assert.equal(limiter.take('b').ok, true);
  });

  test('the key table is bounded and evicts the least recently used key', () => {
    const time = clock();
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 1, maxKeys: 2, now: time.now });
    limiter.take('a');
    limiter.take('b');
    limiter.take('a'); // refused, but marks a as recently used
    limiter.take('c'); // evicts b, the least recently used
    assert.equal(limiter.size, 2);
    assert.equal(limiter.take('a').ok, false, 'a is still remembered and still empty');
    assert.equal(limiter.take('b').ok, true, 'b was forgotten, so it starts with a full bucket');
  });

  test('costs above one are charged', () => {
    const time = clock();
    const limiter = createRateLimiter({ ratePerSecond: 10, burst: 10, now: time.now });
    assert.equal(limiter.take('k', 8).ok, true);
    assert.equal(limiter.take('k', 3).ok, false);
  });

  test('rejects nonsensical settings', () => {
    assert.throws(() => createRateLimiter({ ratePerSecond: 0, burst: 1 }), JunctionError);
    assert.throws(() => createRateLimiter({ ratePerSecond: 1, burst: -1 }), JunctionError);
  });
});
