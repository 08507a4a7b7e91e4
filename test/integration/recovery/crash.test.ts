import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRASH_PARTS, KILL_POINTS, killPointsOfPart, runKillPoints } from './crash-harness.js';

test('the crash test parts together cover at least 50 distinct kill points over every phase', () => {
  assert.equal(new Set(KILL_POINTS).size, KILL_POINTS.length);
  assert.ok(KILL_POINTS.length >= 50, `${KILL_POINTS.length} points`);
  assert.deepEqual(Array.from({ length: CRASH_PARTS }, (_, i) => killPointsOfPart(i + 1)).flat().sort(), [...KILL_POINTS].sort());
  for (const prefix of ['before-manifest', 'after-manifest', 'after-backup:', 'after-file:', 'before-complete', 'after-complete']) {
    assert.ok(KILL_POINTS.some((p) => p.startsWith(prefix)), prefix);
  }
});

test('SIGKILL at kill points of part 1 of a 200-file commit recovers every file to all-old or all-new', async () => {
  const points = killPointsOfPart(1);
  const results = await runKillPoints(points);
  assert.deepEqual(results.map((r) => r.killPoint).sort(), [...points].sort());
  assert.deepEqual(results.filter((r) => r.failure), []);
});
