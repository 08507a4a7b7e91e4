import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DisposeStack } from '../../../../src-main/app/runtime/dispose-stack.js';

test('parts close last-in-first-out, once, and a failing close does not keep the others open', async () => {
  const stack = new DisposeStack();
  const closed: string[] = [];
  stack.push('a', () => closed.push('a'));
  stack.push('b', () => {
    closed.push('b');
    throw new Error('b broke');
  });
  stack.push('c', async () => {
    await new Promise((r) => setTimeout(r, 5));
    closed.push('c');
  });
  const [first, second] = [stack.unwind(), stack.unwind()];
  const failures = await first;
  assert.equal(await second, failures, 'a second unwind waits for the first');
  assert.deepEqual(closed, ['c', 'b', 'a']);
  assert.deepEqual(failures.map((f) => [f.name, (f.error as Error).message]), [['b', 'b broke']]);
  assert.throws(() => stack.push('d', () => undefined), /being closed/);
});
