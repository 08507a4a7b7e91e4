/**
 * `npm run soak`: the long soak (10 minutes by default; SOAK_SECONDS shortens it). Prints the counts
 * and Junction's memory trend and exits non-zero when any call was lost, duplicated or answered twice,
 * or Junction's memory kept growing after warm-up. SOAK_HEAP_SNAPSHOTS=90,300 writes heap snapshots of
 * the Junction process at those seconds into SOAK_SNAPSHOT_DIR (default: the system's temp directory),
 * to compare object counts by constructor between them. SOAK_SETTINGS adds Junction settings
 * (space-separated `key=value`), e.g. `audit=false` to see the memory trend without the audit trail.
 */
import { tmpdir } from 'node:os';
import { runSoak } from '../test/reliability/scenarios/soak.js';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error(`SOAK_SECONDS must be a positive number of seconds, got '${process.env.SOAK_SECONDS}'`);
  process.exit(2);
}
const rate = Number(process.env.SOAK_RATE ?? 20);
const began = Date.now();
const snapshotSeconds = (process.env.SOAK_HEAP_SNAPSHOTS ?? '').split(',').filter((at) => at.trim() !== '').map(Number);
if (snapshotSeconds.some((at) => !Number.isFinite(at) || at <= 0)) {
  console.error(`SOAK_HEAP_SNAPSHOTS must list positive seconds separated by commas, got '${process.env.SOAK_HEAP_SNAPSHOTS}'`);
  process.exit(2);
}
const heapSnapshots = snapshotSeconds.length > 0 ? { atSeconds: snapshotSeconds, dir: process.env.SOAK_SNAPSHOT_DIR ?? tmpdir() } : undefined;
const settings = (process.env.SOAK_SETTINGS ?? '').split(/\s+/).filter((setting) => setting !== '');
const result = await runSoak({ seconds, callsPerSecond: rate, settings, onProgress: (line) => console.log(line), ...(heapSnapshots ? { heapSnapshots } : {}) });
console.log(
  JSON.stringify(
    {
      seconds: result.seconds,
      wallSeconds: Math.round((Date.now() - began) / 1000),
      callsPerSecond: rate,
      sent: result.sent,
      answered: result.answered,
      results: result.results,
      structuredErrors: result.structuredErrors,
      errorSamples: result.errorSamples,
      lostSamples: result.lostSamples,
      lost: result.lost,
      duplicated: result.duplicated,
      phantom: result.phantom,
      resentAndExecuted: result.resentAndExecuted,
      reconnects: result.reconnects,
      junctionMemory: result.rss,
      limits: result.limits,
    },
    null,
    2,
  ),
);
if (result.failures.length > 0) {
  for (const failure of result.failures) console.error(`FAIL: ${failure}`);
  process.exit(1);
}
console.log('soak passed: every call id answered exactly once, none executed twice');
process.exit(0);
