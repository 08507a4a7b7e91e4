import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallDeadline } from '../../../../src-main/bridge/calls/index.js';
import { Deadlines } from '../../../../src-main/shared/deadlines.js';

/** A clock the test moves; timers on the same clock fire when `advance` passes them. */
function fakeTime() {
  let now = 1_000;
  const pending: Array<{ at: number; fire: () => void; live: boolean }> = [];
  const timers = {
    after(ms: number, fire: () => void) {
      const entry = { at: now + ms, fire, live: true };
      pending.push(entry);
      return () => void (entry.live = false);
    },
  } as unknown as Deadlines;
  return {
    now: () => now,
    timers,
    advance(ms: number) {
      now += ms;
      for (const entry of pending) if (entry.live && entry.at <= now) {
        entry.live = false;
        entry.fire();
      }
    },
  };
}

test('the budget stands still while held and runs on after the last release', () => {
  const time = fakeTime();
  const deadline = new CallDeadline(1_000, time.now, time.timers);
  let expired = 0;
  deadline.onExpiry(() => expired++);
  time.advance(400);
  assert.equal(deadline.remaining(), 600);
  const first = deadline.hold();
  const second = deadline.hold();
  assert.equal(deadline.remaining(), Number.POSITIVE_INFINITY);
  time.advance(10_000);
  assert.equal(expired, 0, 'a held budget never expires');
  first();
  first();
  time.advance(5_000);
  assert.equal(expired, 0, 'still held by the second');
  second();
  assert.equal(deadline.remaining(), 600, 'held time is not counted');
  time.advance(599);
  assert.equal(expired, 0);
  time.advance(1);
  assert.equal(expired, 1);
});

test('a cancelled watcher never fires, and a budget spent before the hold still expires at once after it', () => {
  const time = fakeTime();
  const deadline = new CallDeadline(100, time.now, time.timers);
  let fired = 0;
  const cancel = deadline.onExpiry(() => fired++);
  cancel();
  time.advance(200);
  assert.equal(fired, 0);
  const release = deadline.hold();
  deadline.onExpiry(() => fired++);
  time.advance(50);
  release();
  time.advance(0);
  assert.equal(fired, 1);
  assert.ok(deadline.remaining() <= 0);
});
