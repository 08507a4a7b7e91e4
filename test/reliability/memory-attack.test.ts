import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMemoryAttack } from './scenarios/memory-attack.js';

/**
 * The attack that killed Junction: many direct calls, each with a different multi-megabyte argument.
 * The server runs as a child with a small heap cap, so a leak of even a few megabytes per call ends the
 * process inside this bounded loop instead of passing by luck on a large machine.
 */
test('multi-megabyte arguments, each different, neither kill a heap-capped server nor leave its RSS above the idle band', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'junction-memory-ws-'));
  writeFileSync(join(workspace, 'a.ts'), 'export const a = 1;\n');
  try {
    const result = await runMemoryAttack({ workspace, calls: 60, argumentBytes: 3_900_000, heapCapMb: 160 });
    assert.equal(result.exitedWith, undefined, `the server died during the attack: ${result.stderrTail}`);
    assert.equal(result.answered, 60, 'every call was answered');
    assert.deepEqual(result.statuses, [400], 'each call ended in a structured argument error (the path is too long)');
    assert.ok(
      result.rssAfterMb <= result.rssIdleMb + result.idleBandMb,
      `RSS back in its idle band: idle ${result.rssIdleMb} MB, after ${result.rssAfterMb} MB ${result.settledAfterMs} ms after the attack (band ${result.idleBandMb} MB, peak ${result.rssPeakMb} MB)`,
    );
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
