import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean } from './scenarios/attacks.js';
import { withAgent } from './scenarios/agent.js';
import { fuzzAccess, fuzzApi, fuzzHub, fuzzMcp } from './scenarios/fuzz.js';
import { ACCESS_TOKEN, startFuzzStage, type FuzzStage } from './scenarios/fuzz-stage.js';

const RUNS = 40;
describe('fuzz: hostile input never crashes Junction nor earns an unstructured failure', () => {
  let stage: FuzzStage;
  before(async () => {
    stage = await startFuzzStage();
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
});

test('fuzz: wrong tokens and foreign Host/Origin headers are refused with structured 401/403', async () => {
  const guarded = await startFuzzStage({ token: ACCESS_TOKEN });
  try {
    assertClean(await fuzzAccess(guarded.junction.port, ACCESS_TOKEN, 20));
    assert.ok(await guarded.stillHealthy(), 'the right token still gets through');
  } finally {
    await guarded.stop();
  }
});
