import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isJunctionError } from '../../../src-main/contracts/errors.js';
import { onFirstNeed } from '../../../src-main/shared/on-first-need.js';

test('needs that come while the load runs share it, and later ones reuse what it loaded', async () => {
  let loads = 0;
  const need = onFirstNeed('the probe', async () => ({ loaded: ++loads }));
  const [a, b] = await Promise.all([need(), need()]);
  assert.equal(a, b);
  assert.equal(await need(), a);
  assert.equal(loads, 1);
});

test('a failed load rejects with InternalError naming what did not load, and the next need loads again', async () => {
  let loads = 0;
  const need = onFirstNeed('the probe', async () => {
    if (++loads === 1) throw new Error('Cannot find module');
    return 'loaded';
  });
  await assert.rejects(need(), (error) => isJunctionError(error) && error.code === 'InternalError' && error.message === 'the probe did not load: Cannot find module');
  assert.equal(await need(), 'loaded');
  assert.equal(loads, 2);
});
