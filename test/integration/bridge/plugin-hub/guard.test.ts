import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createPlugin, ToolUnavailableError, type McpPlugin } from '../../../../plugins/sdk/index.js';
import type { ToolOutcome } from '../../../../src-main/contracts/tool-source.js';
import { callContext, startBridge, toolNames, until, type TestBridge } from './harness.js';

function errorOf(outcome: ToolOutcome): { code: string; message: string } {
  return (outcome.result.structuredContent as { error: { code: string; message: string } }).error;
}

async function scenario(options: Parameters<typeof startBridge>[0], setup: (plugin: McpPlugin) => void, body: (b: TestBridge, plugin: McpPlugin) => Promise<void>) {
  const bridge = await startBridge(options);
  const plugin = createPlugin({ name: 'guarded', version: '1.0.0', role: 'editor', endpoint: bridge.endpoint, reconnectDelaysMs: [50] });
  setup(plugin);
  try {
    await plugin.connect();
    await until(bridge.bridge, () => toolNames(bridge.bridge).length > 0, 'tools');
    await body(bridge, plugin);
  } finally {
    await plugin.disconnect();
    await bridge.close();
  }
}

describe('call guard over the real hub', () => {
  test('a call answered notExecuted is re-sent after the plugin reconnects and then succeeds', async () => {
    let attempts = 0;
    let reloads = 0;
    let plugin: McpPlugin | undefined;
    await scenario(
      { pluginReconnectWaitSeconds: 5, pluginTimeoutMs: 8_000 },
      (p) => {
        plugin = p;
        p.tool({
          name: 'recompile',
          description: 'Fails once while the scripts reload, then works.',
          input: z.object({ file: z.string() }),
          handler: ({ file }) => {
            attempts++;
            if (attempts === 1) {
              // The app reloads: the connection drops and comes back, as a script domain reload would.
              setTimeout(() => {
                reloads++;
                void p.disconnect().then(() => p.connect());
              }, 10);
              throw new ToolUnavailableError('Scripts are reloading.', { notExecuted: true });
            }
            return { compiled: file, attempt: attempts };
          },
        });
      },
      async ({ bridge }) => {
        const outcome = await bridge.tools.callTool('recompile', { file: 'a.cs' }, callContext());
        assert.equal(outcome.error?.kind, undefined, JSON.stringify(outcome.result));
        assert.deepEqual(outcome.result.structuredContent, { compiled: 'a.cs', attempt: 2 });
        assert.equal(reloads, 1);
        assert.equal(plugin?.state, 'connected');
        assert.equal(bridge.pluginViews()[0]?.reconnects, 1);
      },
    );
  });

  test('a plugin that stays not-executed past the window gets 503 [plugin_reloading] ending with its message', async () => {
    let attempts = 0;
    await scenario(
      { pluginReconnectWaitSeconds: 0.5, resendIntervalMs: 100, pluginTimeoutMs: 5_000 },
      (p) =>
        p.tool({
          name: 'stuck',
          description: 'Always reloading.',
          input: z.object({}),
          handler: () => {
            attempts++;
            throw new ToolUnavailableError('The editor is still compiling.', { notExecuted: true });
          },
        }),
      async ({ bridge }) => {
        const outcome = await bridge.tools.callTool('stuck', {}, callContext());
        assert.equal(outcome.error?.kind, 'unavailable');
        const error = errorOf(outcome);
        assert.equal(error.code, 'PluginReloading');
        assert.ok(error.message.startsWith('[plugin_reloading]'), error.message);
        assert.ok(error.message.endsWith('The editor is still compiling.'), error.message);
        assert.ok(attempts >= 2, `re-sent while connected (attempts: ${attempts})`);
      },
    );
  });

  test('the whole-call deadline expires as a timeout and the plugin is told to cancel', async () => {
    let cancelled: Promise<void> | undefined;
    await scenario(
      { pluginTimeoutMs: 300 },
      (p) =>
        p.tool({
          name: 'slow',
          description: 'Waits until cancelled.',
          input: z.object({}),
          handler: (_args, ctx) => {
            cancelled = new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
            return cancelled.then(() => 'too late');
          },
        }),
      async ({ bridge }) => {
        const outcome = await bridge.tools.callTool('slow', {}, callContext());
        assert.equal(outcome.error?.kind, 'timeout');
        assert.equal(errorOf(outcome).code, 'ToolTimeout');
        await cancelled;
      },
    );
  });

  test('bad arguments and thrown errors: 400 and 422 shapes (lone surrogates are refused once, by the dispatcher)', async () => {
    let ran = 0;
    await scenario(
      {},
      (p) => {
        p.tool({
          name: 'count',
          description: 'Takes a JSON Schema input, so only the bridge validates it.',
          input: { type: 'object', properties: { n: { type: 'integer' }, text: { type: 'string' } }, required: ['n'] },
          handler: (args) => {
            ran++;
            return { n: args['n'] };
          },
        });
        p.tool({
          name: 'explode',
          description: 'Throws.',
          input: z.object({}),
          handler: () => {
            throw new Error('the crate is locked');
          },
        });
      },
      async ({ bridge }) => {
        const invalid = await bridge.tools.callTool('count', { n: 'three' }, callContext());
        assert.equal(invalid.error?.kind, 'binding');
        assert.equal(errorOf(invalid).code, 'InvalidArguments');
        assert.match(errorOf(invalid).message, /\/n must be integer/);

        assert.equal(ran, 0);

        const fine = await bridge.tools.callTool('count', { n: 2 }, callContext());
        assert.deepEqual(fine.result.structuredContent, { n: 2 });

        const thrown = await bridge.tools.callTool('explode', {}, callContext());
        assert.equal(thrown.error?.kind, 'thrown');
        assert.deepEqual(errorOf(thrown), { code: 'ToolFailed', message: 'the crate is locked' });

        const unknown = await bridge.tools.callTool('nope', {}, callContext());
        assert.equal(unknown.error?.kind, 'notFound');
      },
    );
  });
});
