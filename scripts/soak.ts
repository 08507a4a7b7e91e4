/**
 * `npm run soak`: the long soak (10 minutes by default; SOAK_SECONDS shortens it). Prints the counts
 * and RSS and exits non-zero when any call was lost, duplicated or answered twice, or RSS grew.
 */
import { runSoak } from '../test/reliability/scenarios/soak.js';

const seconds = Number(process.env.SOAK_SECONDS ?? 600);
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error(`SOAK_SECONDS must be a positive number of seconds, got '${process.env.SOAK_SECONDS}'`);
  process.exit(2);
}
const rate = Number(process.env.SOAK_RATE ?? 20);
const began = Date.now();
const result = await runSoak({ seconds, callsPerSecond: rate, onProgress: (line) => console.log(line) });
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
      lost: result.lost,
      duplicated: result.duplicated,
      phantom: result.phantom,
      resentAndExecuted: result.resentAndExecuted,
      reconnects: result.reconnects,
      rss: result.rss,
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
