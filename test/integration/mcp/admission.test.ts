import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAdmission } from '../../../src-main/app/admission.js';
import { successOutcome, type ToolSource } from '../../../src-main/contracts/tool-source.js';
import { createFixtureToolSource } from '../../support/fixture-tool-source.js';
import { eventually } from '../../support/junction-harness.js';
import { startMcpStack } from '../../support/mcp-stack.js';

type ErrorBody = { error: { code: string; next?: { kind: string }; details?: { retryAfterMs?: number } } };

describe('per-agent admission: rate limit and in-flight cap', () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered = 0;
  const blocking: ToolSource = {
    id: 'blocking',
    listTools: () => [{ name: 'wait', inputSchema: { type: 'object' } }],
    onToolsChanged: () => () => undefined,
    callTool: async () => {
      entered++;
      await gate;
      return successOutcome({ waited: true });
    },
  };
  let stack: Awaited<ReturnType<typeof startMcpStack>>;
  before(async () => {
    stack = await startMcpStack([createFixtureToolSource(), blocking], { admission: createAdmission({ ratePerSecond: 1, burst: 5, maxInFlight: 2 }) });
  });
  after(async () => {
    release();
    await stack.close();
  });

  test('past the burst an agent gets 429 Overloaded with retryAfterMs; the budget is per agent', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await stack.post('/api/tools/echo', '{}')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    const refused = await stack.post('/api/tools/echo', '{}');
    assert.equal(refused.status, 429);
    const body = refused.json as unknown as ErrorBody;
    assert.equal(body.error.code, 'Overloaded');
    assert.equal(body.error.next?.kind, 'retryLater');
    assert.ok((body.error.details?.retryAfterMs ?? 0) > 0);
    const mcpAgent = await stack.connectClient();
    const viaMcp = await mcpAgent.callTool({ name: 'echo', arguments: {} });
    assert.equal(viaMcp.isError, undefined, 'another agent has its own budget');
  });

  test('a third concurrent call from one agent is refused with Overloaded until a slot frees', async () => {
    const agent = await stack.connectClient();
    const running = [agent.callTool({ name: 'wait', arguments: {} }), agent.callTool({ name: 'wait', arguments: {} })];
    await eventually(() => entered === 2, 10_000, 'both calls running');
    const third = await agent.callTool({ name: 'wait', arguments: {} });
    assert.equal(third.isError, true);
    assert.equal((third.structuredContent as ErrorBody).error.code, 'Overloaded');
    release();
    const done = await Promise.all(running);
    assert.ok(done.every((r) => r.isError === undefined));
    const after = await agent.callTool({ name: 'wait', arguments: {} });
    assert.equal(after.isError, undefined, 'slots are released when calls end');
  });
});
