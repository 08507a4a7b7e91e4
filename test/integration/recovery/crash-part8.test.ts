import { test } from 'node:test';
import assert from 'node:assert/strict';
import { killPointsOfPart, runKillPoints } from './crash-harness.js';

test('SIGKILL at kill points of part 8 of a 200-file commit recovers every file to all-old or all-new', async () => {
  const points = killPointsOfPart(8);
  const results = await runKillPoints(points);
  assert.deepEqual(results.map((r) => r.killPoint).sort(), [...points].sort());
  assert.deepEqual(results.filter((r) => r.failure), []);
});
