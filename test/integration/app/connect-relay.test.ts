import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { CLI_SOURCE_FOR_TESTS, isolatedEnv } from '../../support/cli.js';
import { rawRelay } from '../../support/raw-relay.js';
import { startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { startLoopbackProxy, type LoopbackProxy } from '../../support/loopback-proxy.js';

const initialize = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw-agent', version: '1' } } });

describe('`junction connect` relays stdio to a running Junction the way MCP clients expect', () => {
  let junction: TestJunction;
  let proxy: LoopbackProxy;

  before(async () => {
    junction = await startTestJunction();
    // Between the relay and Junction, so the test sees every HTTP request the relay makes.
    proxy = await startLoopbackProxy(junction.port);
  });
  after(async () => {
    await proxy.close();
    await junction.stop();
  });

  test('the SDK stdio client works through it; every request after initialize carries MCP-Protocol-Version; closing ends the session with DELETE, quietly', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(proxy.port), 'log-level=warn'],
      env: isolatedEnv(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const agent = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await agent.connect(transport);
    const { tools } = await agent.listTools();
    assert.ok(tools.some((t) => t.name === 'server-status'));
    assert.equal((await agent.callTool({ name: 'server-status', arguments: {} })).isError, undefined);
    const exited = new Promise<void>((resolve) => transport.onclose = resolve);
    await agent.close();
    await exited;

    const mcpRequests = proxy.requestHeads().filter((h) => /^\w+ \/mcp /.test(h));
    const [first, ...later] = mcpRequests;
    assert.match(first!, /^POST \/mcp /);
    assert.doesNotMatch(first!, /mcp-protocol-version/i, 'initialize itself negotiates the version');
    assert.ok(later.length >= 3, `initialized, tools/list, tools/call and DELETE went out: ${later.length}`);
    for (const head of later) assert.match(head, new RegExp(`^mcp-protocol-version: ${LATEST_PROTOCOL_VERSION}$`, 'im'), head);
    assert.ok(later.some((h) => /^DELETE \/mcp /.test(h)), 'stdin closing ended the session on the server');
    assert.doesNotMatch(stderr, /AbortError|SSE stream disconnected/);
  });

  describe('an agent that writes lines without waiting for answers', () => {
    // One relay process for both checks: spawning the CLI from source is the slow part of this file.
    let relay: ReturnType<typeof rawRelay>;
    before(() => {
      relay = rawRelay(proxy.port);
    });
    after(async () => {
      await relay.end();
    });

    test('messages sent before the initialize answer wait for it instead of failing as "unreachable"', async () => {
      relay.write(
        JSON.stringify(initialize(1)),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      );
      const listed = await relay.answer((a) => a.id === 2);
      assert.equal(listed.error, undefined, JSON.stringify(listed.error));
      assert.ok((listed.result as { tools: unknown[] }).tools.length > 0);
      assert.deepEqual((await relay.answer((a) => a.id === 3)).result, {});
    });

    test('a batch and a line that is not JSON are answered with JSON-RPC errors, and the relay keeps serving', async () => {
      relay.write('this is not json', JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'ping' }]), JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }));
      const parse = await relay.answer((a) => (a.error as { code?: number } | undefined)?.code === -32700);
      assert.equal(parse.id, null);
      const batch = await relay.answer((a) => (a.error as { code?: number } | undefined)?.code === -32600);
      assert.match((batch.error as { message: string }).message, /batch/i);
      assert.deepEqual((await relay.answer((a) => a.id === 8)).result, {});
    });
  });
});
