import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withFields } from '../../../src-main/shared/with-fields.js';

test('withFields is a spread: the base copied, the added fields set or overwritten, the base untouched', () => {
  const base = { callId: 'c1', status: 'running', startedAt: 5 };
  const finished = withFields(base, { status: 'ok', durationMs: 3 });
  assert.deepEqual(finished, { callId: 'c1', status: 'ok', startedAt: 5, durationMs: 3 });
  assert.deepEqual(Object.keys(finished), ['callId', 'status', 'startedAt', 'durationMs'], 'keys keep the order a spread gives them');
  assert.deepEqual(base, { callId: 'c1', status: 'running', startedAt: 5 });
  assert.notEqual(finished, base);
});
