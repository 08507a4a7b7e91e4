/**
 * Junction's launch caps how far the old generation grows past the live heap before V8 collects it.
 * Measured in a fresh process (V8 flags are per process): objects that outlive two scavenges stream
 * through a steady live heap, as per-call state does under load. Left to itself V8 let the old
 * generation reach about 4 times the live heap here, as under bench:bridge's load.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../../../fixtures/heap/promoted-garbage.ts', import.meta.url));
/** Two with the limit, plus what V8 allocates while marking is under way. */
const MAX_OLD_TO_LIVE = 3;

test('with the launch limit the old generation is collected before it reaches three times the live heap', () => {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', FIXTURE, 'limit'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  const { liveMb, maxOldMb } = JSON.parse(run.stdout) as { liveMb: number; maxOldMb: number };
  assert.ok(maxOldMb <= MAX_OLD_TO_LIVE * liveMb, `old generation reached ${maxOldMb.toFixed(1)} MB for ${liveMb.toFixed(1)} MB live`);
});
