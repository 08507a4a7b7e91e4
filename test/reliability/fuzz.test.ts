import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AttackTally } from './scenarios/attacks.js';
import { withAgent } from './scenarios/agent.js';
import { fuzzAccess, fuzzApi, fuzzHostTools, fuzzHub, fuzzMcp } from './scenarios/fuzz.js';
import { ACCESS_TOKEN, startFuzzStage, type FuzzStage } from './scenarios/fuzz-stage.js';
import { sampleRss, type RssSampler } from './scenarios/rss.js';

const RUNS = 40;
const RSS_GROWTH_LIMIT_MB = 150;

function assertClean(tallies: AttackTally[]): void {
  for (const t of tallies) {
    assert.ok(t.tried > 0, `${t.category}: nothing was tried`);
    assert.deepEqual(t.violations, [], `${t.category}: ${t.violations.length} violations`);
    assert.equal(t.refused + t.accepted, t.tried, `${t.category}: every input was refused or accepted`);
  }
}

describe('fuzz: hostile input never crashes Junction nor earns an unstructured failure', () => {
  let stage: FuzzStage;
  let rss: RssSampler;
  before(async () => {
    stage = await startFuzzStage();
    // Sampled once the stage is up: TypeScript loads when its workspace opens, and that is start-up, not growth under fuzzing.
    rss = sampleRss();
  });
  after(async () => {
    await stage.stop();
  });

  test('raw hub frames after a valid handshake: each earns an answer or a Close; other connections keep working', async () => {
    const tallies = await fuzzHub(`${stage.junction.baseUrl}/hub/mcp-server`, RUNS, stage.stillHealthy);
    assertClean(tallies);
    const refusedOf = (c: string) => tallies.find((t) => t.category === c)?.refused;
    assert.equal(refusedOf('hub: oversized frames'), tallies.find((t) => t.category === 'hub: oversized frames')?.tried, 'every oversized frame is refused');
    assert.equal(refusedOf('hub: binary frames'), tallies.find((t) => t.category === 'hub: binary frames')?.tried, 'every binary frame is refused');
  });

  test('JSON-RPC bodies on /mcp, with and without a session: always JSON-RPC back, never a bare 500', async () => {
    assertClean(await fuzzMcp(stage.junction.port, RUNS));
    assert.ok(await stage.stillHealthy());
  });

  test('/api/tools/{name} names and bodies: always { error: { code, message } } with a mapped status', async () => {
    const names = await withAgent(stage.junction.baseUrl, async (agent) => (await agent.listTools()).tools.map((t) => t.name));
    assertClean(await fuzzApi(stage.junction.port, RUNS * 2, names));
  });

  test('every host tool with random and schema-shaped arguments: a result or a structured error', async () => {
    const tallies = await withAgent(stage.junction.baseUrl, (agent) => fuzzHostTools(agent, 5, stage.isHostTool));
    assertClean(tallies);
    assert.ok(await stage.stillHealthy());
    const grown = rss.stop();
    assert.ok(grown.endMb - grown.startMb < RSS_GROWTH_LIMIT_MB, `RSS grew from ${grown.startMb} MB to ${grown.endMb} MB`);
  });
});

test('fuzz: wrong tokens and foreign Host/Origin headers are refused with structured 401/403', async () => {
  const guarded = await startFuzzStage(ACCESS_TOKEN);
  try {
    assertClean(await fuzzAccess(guarded.junction.port, ACCESS_TOKEN, 20));
    assert.ok(await guarded.stillHealthy(), 'the right token still gets through');
  } finally {
    await guarded.stop();
  }
});
