import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, type AttackTally } from './scenarios/attacks.js';
import { openAgent } from './scenarios/agent.js';
import { fuzzHostTools } from './scenarios/fuzz.js';
import { startFuzzStage } from './scenarios/fuzz-stage.js';
import { leastSquaresSlope } from './scenarios/rss.js';

/**
 * Host-tool fuzzing in rounds, each with fresh inputs, against a Junction in its own process (in this
 * process the heap also holds the test's SDK client, which compiles its output validators anew on every
 * tools/list: 14 KB a call). Every round ends with a `diagnostics` call, so each reading is taken with
 * the compiler loaded: fuzzed `workspace-reload`s drop the program (about 37 MB) and the next compiler
 * call builds it again, so without it a reading holds a program or not by chance. The first rounds are
 * warm-up: TypeScript loads (about 90 MB of RSS), the console's call history fills (kept at 50 calls),
 * and the bytecode of the compiler's paths that new inputs reach is compiled, which grows the heap about
 * 1.5 KB a call at first and ever less (about 0.5 KB a call after 800 calls, 0.1 to 0.2 after 1,400). The least-squares slope
 * of the retained heap (after a full collection, V8's code spaces left out) over the rounds after that
 * tells a leak from what a warm-up reaches: measured 0.3 to 0.6 KB a call over rounds 12 to 20; flat
 * at about 78 MB up to 4,700 calls. Its own file, so the runner's per-file timeout is its own on a loaded machine.
 */
const HOST_FUZZ = { runsPerTool: 2, warmupRounds: 12, measuredRounds: 8, callHistory: 50 };
const HEAP_SLOPE_LIMIT_KB_PER_CALL = 2;
/** RSS also holds malloc arenas and SQLite's cache, which step rather than grow; a native leak of a size that matters still shows. */
const RSS_GROWTH_LIMIT_MB = 64;
const mb = (bytes: number) => bytes / 1024 / 1024;

test('fuzz: every host tool with random and schema-shaped arguments: a result or a structured error, and the retained heap of Junction does not grow', async (t) => {
  const stage = await startFuzzStage({ ownProcess: true, settings: [`console-call-history=${HOST_FUZZ.callHistory}`] });
  const agent = await openAgent(stage.junction.baseUrl);
  try {
    const tallies: AttackTally[] = [];
    const heap: Array<{ x: number; y: number }> = [];
    const rssMb: number[] = [];
    let calls = 0;
    for (let round = 0; round < HOST_FUZZ.warmupRounds + HOST_FUZZ.measuredRounds; round++) {
      const roundTallies = await fuzzHostTools(agent, HOST_FUZZ.runsPerTool, stage.isHostTool, round);
      tallies.push(...roundTallies);
      calls += roundTallies.reduce((sum, t) => sum + t.tried, 0);
      await agent.callTool({ name: 'diagnostics', arguments: {} });
      // The reading after the last warm-up round is the baseline.
      if (round < HOST_FUZZ.warmupRounds - 1) continue;
      const memory = await stage.memory!();
      heap.push({ x: calls, y: mb(memory.heapUsed - memory.codeUsed) * 1024 });
      rssMb.push(mb(memory.rss));
    }
    assertClean(tallies);
    assert.ok(await stage.stillHealthy());
    const slope = leastSquaresSlope(heap);
    assert.ok(slope !== null, 'the heap trend was fitted');
    const [first, last] = [heap[0]!, heap.at(-1)!];
    const [rssStart, rssEnd] = [rssMb[0]!, rssMb.at(-1)!];
    t.diagnostic(`retained heap ${(first.y / 1024).toFixed(1)} → ${(last.y / 1024).toFixed(1)} MB over calls ${first.x}–${last.x}: ${slope.toFixed(2)} KB a call; RSS ${rssStart.toFixed(1)} → ${rssEnd.toFixed(1)} MB`);
    assert.ok(
      slope < HEAP_SLOPE_LIMIT_KB_PER_CALL,
      `Junction's retained heap grew ${slope.toFixed(2)} KB a call after warm-up (${(first.y / 1024).toFixed(1)} MB at call ${first.x}, ${(last.y / 1024).toFixed(1)} MB at call ${last.x}); the limit is ${HEAP_SLOPE_LIMIT_KB_PER_CALL}`,
    );
    assert.ok(rssEnd - rssStart < RSS_GROWTH_LIMIT_MB, `Junction's RSS grew from ${rssStart.toFixed(1)} MB to ${rssEnd.toFixed(1)} MB after warm-up`);
  } finally {
    await agent.close();
    await stage.stop();
  }
});
