import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionOf, MAX_COMPLETION_VALUES } from '../../../src-main/app/completion-values.js';

test('prefix matches, sorted and each once; exactly 100 is not "more"', () => {
  assert.deepEqual(completionOf(['b', 'ab', 'aa', 'aa', 'Ab'], 'a'), { values: ['aa', 'ab'], total: 2, hasMore: false });
  const hundred = Array.from({ length: MAX_COMPLETION_VALUES }, (_, i) => `x${i}`);
  assert.deepEqual(completionOf(hundred, 'x').hasMore, false);
  const more = completionOf([...hundred, 'x-last'], 'x');
  assert.equal(more.values.length, MAX_COMPLETION_VALUES);
  assert.equal(more.total, MAX_COMPLETION_VALUES + 1);
  assert.equal(more.hasMore, true);
});
