import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createFixtureToolSource } from '../../support/fixture-tool-source.js';
import { startMcpStack } from '../../support/mcp-stack.js';
import type { CallView } from '../../../src-main/contracts/console.js';

describe('MCP room over streamable HTTP and the direct API', () => {
  const source = createFixtureToolSource();
  const finished: CallView[] = [];
  let stack: Awaited<ReturnType<typeof startMcpStack>>;

  before(async () => {
    stack = await startMcpStack([source], {
      maxBodyBytes: 4096,
      observers: [{ started: () => undefined, progress: () => undefined, finished: (call) => finished.push(call) }],
    });
  });
  after(() => stack.close());

  test('an SDK client lists and calls tools; structured results and isError survive', async () => {
    const client = await stack.connectClient();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['echo', 'fail-conflict', 'fail-thrown', 'slow']);

    const ok = await client.callTool({ name: 'echo', arguments: { text: 'héllo 🌍' } });
    assert.equal(ok.isError, undefined);
    assert.deepEqual(ok.structuredContent, { echoed: { text: 'héllo 🌍' } });

    const failed = await client.callTool({ name: 'fail-thrown', arguments: {} });
    assert.equal(failed.isError, true);
    assert.deepEqual(failed.structuredContent, { error: { code: 'ToolFailed', message: 'the scene has no camera' } });

    const missing = await client.callTool({ name: 'no-such-tool', arguments: {} }).then(
      () => assert.fail('an unknown tool must not produce a result'),
      (error: unknown) => error as { code: number; data: { code: string } },
    );
    assert.equal(missing.code, -32602);
    assert.equal(missing.data.code, 'ToolNotFound');
    assert.ok(finished.some((c) => c.tool === 'echo' && c.status === 'ok' && c.transport === 'mcp-http' && c.agent.startsWith('test-agent/1.0.0')));
    assert.ok(finished.some((c) => c.tool === 'fail-thrown' && c.status === 'error' && c.errorCode === 'ToolFailed'));
  });

  test('progress notifications reach the agent', async () => {
    const client = await stack.connectClient();
    const seen: number[] = [];
    const result = await client.callTool({ name: 'slow', arguments: { steps: 4 } }, undefined, { onprogress: (p) => seen.push(p.progress) });
    assert.deepEqual(result.structuredContent, { steps: 4 });
    assert.deepEqual(seen, [1, 2, 3, 4]);
  });

  test('a catalogue change emits notifications/tools/list_changed to connected agents', async () => {
    const client = await stack.connectClient();
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    source.addTool({ name: 'late-tool', inputSchema: { type: 'object' } });
    // The agent's notification stream (a GET on /mcp) opens asynchronously after initialize; a change
    // made before it is open cannot be delivered, so keep changing the catalogue until one arrives.
    let extra = 0;
    const nudge = setInterval(() => source.addTool({ name: `late-tool-${++extra}`, inputSchema: { type: 'object' } }), 100);
    await changed.finally(() => clearInterval(nudge));
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'late-tool'));
  });

  test('lone surrogates are refused before reaching the source; valid pairs pass', async () => {
    const client = await stack.connectClient();
    const before = source.seenArgs.length;
    const refused = await client.callTool({ name: 'echo', arguments: { text: 'broken \ud800 text' } });
    assert.equal(refused.isError, true);
    assert.equal((refused.structuredContent as { error: { code: string } }).error.code, 'InvalidArguments');
    assert.equal(source.seenArgs.length, before, 'the source never saw the call');
    const api = await stack.post('/api/tools/echo', '{"text":"\\udc00"}');
    assert.equal(api.status, 400);
    assert.equal((api.json.error as { code: string }).code, 'InvalidArguments');
  });

  test('direct HTTP maps failure kinds to statuses with the documented message form', async () => {
    const ok = await stack.post('/api/tools/echo', JSON.stringify({ text: 'x' }));
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json.structuredContent, { echoed: { text: 'x' } });

    const thrown = await stack.post('/api/tools/fail-thrown', '{}');
    assert.equal(thrown.status, 422);
    assert.deepEqual(thrown.json.error, { code: 'ToolFailed', message: "Tool execution failed for 'fail-thrown': the scene has no camera" });

    const conflict = await stack.post('/api/tools/fail-conflict', '{}');
    assert.equal(conflict.status, 409);
    assert.equal((conflict.json.error as { code: string }).code, 'Conflict');

    const unknown = await stack.post('/api/tools/nope', '{}');
    assert.equal(unknown.status, 404);
    assert.equal((unknown.json.error as { code: string }).code, 'ToolNotFound');
  });

  test('direct HTTP refuses bad bodies with structured errors and keeps serving', async () => {
    const invalid = await stack.post('/api/tools/echo', '{"text":');
    assert.equal(invalid.status, 400);
    assert.equal((invalid.json.error as { code: string }).code, 'InvalidArguments');
    const array = await stack.post('/api/tools/echo', '[1,2]');
    assert.equal(array.status, 400);
    const big = await stack.post('/api/tools/echo', JSON.stringify({ text: 'x'.repeat(10_000) }));
    assert.equal(big.status, 413);
    assert.equal((big.json.error as { code: string }).code, 'PayloadTooLarge');
    const still = await stack.post('/api/tools/echo', '{}');
    assert.equal(still.status, 200);
  });

  test('/mcp refuses invalid JSON and unknown sessions with JSON-RPC errors', async () => {
    const bad = await stack.post('/mcp', '{nope', { accept: 'application/json, text/event-stream' });
    assert.equal(bad.status, 400);
    assert.equal((bad.json.error as { code: number }).code, -32700);
    const stale = await stack.post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 'not-a-session',
    });
    assert.equal(stale.status, 404);
  });
});
