import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSoak } from './scenarios/soak.js';

test('short soak: every call id answered exactly once and executed at most once across plugin reconnects', async () => {
  const result = await runSoak({ seconds: 20, callsPerSecond: 20, reconnectEveryMs: 2500 });
  assert.deepEqual(result.failures, []);
  assert.equal(result.sent, 400);
  assert.equal(result.answered, result.sent);
  assert.ok(result.reconnects >= 5, `the plugin reconnected during the soak (${result.reconnects})`);
  assert.ok(result.resentAndExecuted > 0, 'calls refused as not executed were re-sent and then executed once');
  assert.ok(result.results > result.sent / 2, 'most calls succeeded');
});
