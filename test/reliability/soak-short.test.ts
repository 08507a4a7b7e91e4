import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSoak } from './scenarios/soak.js';

/** MB per minute at 20 calls/s: about 8 KB retained per call. */
const SHORT_SOAK_SLOPE_LIMIT = 10;
/**
 * A 15-second RSS trend mostly shows V8 and malloc settling after start-up (it is often steeply
 * negative), so it catches only a gross native leak, about 25 KB a call; `npm run soak` holds RSS to
 * the audit trail's filling plus 1.5 MB/min.
 */
const SHORT_SOAK_RSS_SLOPE_LIMIT = 30;

test('short soak: every call id answered exactly once and executed at most once across plugin reconnects', async () => {
  // A 20-second window is mostly warm-up (JIT, caches, agent rotation), so its tolerance is wide: it
  // catches a leak of ~8 KB or more per call; `npm run soak` fits minutes of samples against 1 MB/min.
  const result = await runSoak({
    seconds: 20,
    callsPerSecond: 20,
    reconnectEveryMs: 2500,
    callHistory: 100,
    warmupSeconds: 5,
    heapSlopeLimitMbPerMin: SHORT_SOAK_SLOPE_LIMIT,
    rssSlopeLimitMbPerMin: SHORT_SOAK_RSS_SLOPE_LIMIT,
  });
  assert.deepEqual(result.failures, []);
  assert.equal(result.sent, 400);
  assert.equal(result.answered, result.sent);
  assert.ok(result.reconnects >= 5, `the plugin reconnected during the soak (${result.reconnects})`);
  assert.ok(result.resentAndExecuted > 0, 'calls refused as not executed were re-sent and then executed once');
  assert.ok(result.results > result.sent / 2, 'most calls succeeded');
  assert.ok(result.rss.samples >= 10, `the memory trend was fitted to ${result.rss.samples} samples`);
  assert.ok(
    result.rss.heapSlopeMbPerMin !== null && result.rss.heapSlopeMbPerMin <= SHORT_SOAK_SLOPE_LIMIT,
    `Junction's retained heap trend ${result.rss.heapSlopeMbPerMin} MB/min (RSS ${result.rss.rssSlopeMbPerMin} MB/min) within ${SHORT_SOAK_SLOPE_LIMIT} MB/min`,
  );
});
