/**
 * The MCP SDK's own example clients against Junction's /mcp, with a plugin publishing the tool they
 * call: `start-notification-stream`, which logs to the calling agent while it runs, so its answer
 * streams over SSE while initialize and tools/list are plain JSON.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createPlugin, type McpPlugin } from '../../../plugins/sdk/index.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { runExample, sdkExampleClient } from '../../support/sdk-examples.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("the SDK's example clients against Junction", () => {
  let junction: TestJunction;
  let plugin: McpPlugin;

  before(async () => {
    junction = await startTestJunction();
    plugin = createPlugin({ name: 'notifier', version: '1.0.0', role: 'editor', endpoint: `${junction.baseUrl}/hub/mcp-server` });
    plugin.tool({
      name: 'start-notification-stream',
      description: 'Logs `count` lines to the calling agent, then answers.',
      input: z.object({ interval: z.number().optional(), count: z.number().optional(), caller: z.string().optional() }),
      handler: async ({ interval, count, caller }, ctx) => {
        const lines = count ?? 3;
        for (let i = 1; i <= lines; i++) {
          // The examples ask for up to a second between lines; a few milliseconds keep the test short.
          await sleep(Math.min(interval ?? 10, 10));
          ctx.log('info', `notification ${i} of ${lines}${caller ? ` for ${caller}` : ''}`);
        }
        return `sent ${lines} notifications`;
      },
    });
    await plugin.connect();
    const agent = await junction.connectAgent();
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'start-notification-stream'), 10_000, 'the plugin tool');
  });
  after(async () => {
    await plugin.disconnect();
    await junction.stop();
  });

  test('streamableHttpWithSseFallbackClient connects over streamable HTTP, lists tools, and receives every log line of its call', async () => {
    const { code, output } = await runExample(sdkExampleClient('streamableHttpWithSseFallbackClient'), `${junction.baseUrl}/mcp`);
    assert.equal(code, 0, output);
    assert.match(output, /Successfully connected using modern Streamable HTTP transport/);
    assert.match(output, /start-notification-stream/);
    for (let i = 1; i <= 5; i++) assert.match(output, new RegExp(`Notification: info - .*notification ${i} of 5`), output);
    assert.match(output, /sent 5 notifications/);
  });

  test('multipleClientsParallel: three sessions at once, each gets only its own log lines', async () => {
    const { code, output } = await runExample(sdkExampleClient('multipleClientsParallel'), `${junction.baseUrl}/mcp`);
    assert.equal(code, 0, output);
    assert.match(output, /All clients completed successfully/);
    for (const [client, count] of [['client1', 5], ['client2', 3], ['client3', 8]] as const) {
      const lines = output.split('\n').filter((l) => l.startsWith(`[${client}] Notification:`));
      assert.equal(lines.length, count, output);
      assert.ok(lines.every((l) => l.includes(`for ${client}`)), output);
    }
  });
});
