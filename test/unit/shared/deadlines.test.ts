import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Deadlines } from '../../../src-main/shared/deadlines.js';

/** The deadlines' timer is unref'd; hold the loop open while a test waits for it. */
async function withLoopOpen<T>(run: () => Promise<T>): Promise<T> {
  const keepAlive = setInterval(() => undefined, 1_000);
  try {
    return await run();
  } finally {
    clearInterval(keepAlive);
  }
}

test('deadlines fire in deadline order, cancelled ones never, and the heap empties', async () => {
  const deadlines = new Deadlines();
  const fired: string[] = [];
  await withLoopOpen(async () => {
    deadlines.after(30, () => fired.push('c'));
    const cancelB = deadlines.after(20, () => fired.push('b'));
    deadlines.after(10, () => fired.push('a'));
    const cancelD = deadlines.after(5, () => fired.push('d'));
    cancelD();
    cancelB();
    cancelB();
    assert.equal(deadlines.size, 2);
    await new Promise((r) => setTimeout(r, 60));
  });
  assert.deepEqual(fired, ['a', 'c']);
  assert.equal(deadlines.size, 0);
});

test('a deadline added later but due sooner re-arms the timer', async () => {
  const deadlines = new Deadlines();
  const fired: string[] = [];
  await withLoopOpen(async () => {
    deadlines.after(5_000, () => fired.push('late'));
    await new Promise<void>((resolve) => deadlines.after(5, () => (fired.push('soon'), resolve())));
  });
  assert.deepEqual(fired, ['soon']);
  assert.equal(deadlines.size, 1);
});

test('removing any entries keeps the heap ordered (property)', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 1_000 }), fc.boolean()), { maxLength: 60 }), (plan) => {
      let clock = 0;
      const deadlines = new Deadlines(() => clock);
      const fired: number[] = [];
      const cancels = plan.map(([ms]) => deadlines.after(ms + 10_000, () => fired.push(ms)));
      plan.forEach(([, cancel], i) => cancel && cancels[i]!());
      const kept = plan.filter(([, cancel]) => !cancel).map(([ms]) => ms);
      assert.equal(deadlines.size, kept.length);
      // Expire everything by moving the clock and driving the private timer callback.
      clock = 1e9;
      (deadlines as unknown as { expire(): void }).expire();
      assert.deepEqual(fired, [...kept].sort((a, b) => a - b));
      assert.equal(deadlines.size, 0);
    }),
  );
});
