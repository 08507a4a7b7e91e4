/**
 * Request bodies past max-body-bytes, as real agents send them: the MCP SDK's own HTTP client, still
 * uploading when the answer comes, and the stdio relay (`junction connect`). Both must be told
 * PayloadTooLarge with the size, the limit and the setting that raises it; neither may see a reset
 * connection or "unreachable". McpPlugin.Server takes 30 MB bodies (Kestrel's default), so by
 * default Junction takes a 6 MB one.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_SOURCE_FOR_TESTS, isolatedEnv } from '../../support/cli.js';
import { startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const SIX_MB = 'a'.repeat(6_000_000);
const LIMIT = 4_194_304;

describe('bodies over max-body-bytes', () => {
  let junction: TestJunction;
  before(async () => {
    junction = await startTestJunction([`max-body-bytes=${LIMIT}`]);
  });
  after(() => junction.stop());

  test('the MCP SDK client over HTTP gets 413 PayloadTooLarge naming the limit and the setting, and its session goes on', async () => {
    const agent = await junction.connectAgent();
    const refused = await agent.callTool({ name: 'server-status', arguments: { detail: SIX_MB } }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    assert.ok(refused, 'the call was refused');
    assert.doesNotMatch(refused.message, /fetch failed/);
    assert.match(refused.message, /PayloadTooLarge/);
    assert.match(refused.message, /4194304-byte limit \(it declares 6000\d{3} bytes\); the setting max-body-bytes raises it/);
    assert.ok((await agent.listTools()).tools.length > 0, 'the session still answers');
  });

  test('the stdio relay answers the agent with that refusal, not "unreachable"', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(junction.port), 'log-level=error'],
      env: isolatedEnv(),
      stderr: 'pipe',
    });
    const agent = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await agent.connect(transport);
    try {
      const refused = await agent.callTool({ name: 'server-status', arguments: { detail: SIX_MB } }).then(
        () => undefined,
        (error: unknown) => error as Error & { code?: number; data?: { code?: string; details?: Record<string, unknown> } },
      );
      assert.ok(refused, 'the call was refused');
      assert.doesNotMatch(refused.message, /unreachable/);
      assert.equal(refused.data?.code, 'PayloadTooLarge');
      assert.equal(refused.data?.details?.['setting'], 'max-body-bytes');
      assert.equal(refused.data?.details?.['limitBytes'], LIMIT);
      const status = await agent.callTool({ name: 'server-status', arguments: {} });
      assert.equal(status.isError, undefined, 'the relay and its session go on');
    } finally {
      await agent.close();
    }
  });
});

test("by default a 6 MB request body is read (McpPlugin.Server's limit is 30 MB)", async () => {
  const junction = await startTestJunction();
  try {
    const agent = await junction.connectAgent();
    const result = await agent.callTool({ name: 'server-status', arguments: { detail: SIX_MB } });
    // The tool itself refuses the value: the body got through.
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'InvalidArguments');
  } finally {
    await junction.stop();
  }
});
