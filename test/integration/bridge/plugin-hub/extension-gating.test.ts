/**
 * A plugin shaped like the .NET McpPlugin 8.x client (raw WebSocket, the camelCase handshake it sends,
 * no `extensions`) is never sent an MCP extension method, even while agents complete its prompt
 * arguments and subscribe to its resources; it keeps serving as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ServerToPlugin } from '../../../../plugins/sdk/wire/index.js';
import { eventually, startTestJunction } from '../../../support/junction-harness.js';
import { RawClient, RS, wsUrl } from '../signalr/hub-harness.js';

const EXTENSION_METHODS = [ServerToPlugin.RunCompletion, ServerToPlugin.RunSubscribeResource, ServerToPlugin.RunUnsubscribeResource];

test('a .NET 8.x-shaped plugin is never sent an extension method and gets the 8.x handshake answer', async () => {
  const junction = await startTestJunction();
  const raw = await RawClient.open(`${wsUrl(junction.baseUrl)}/hub/mcp-server?client_role=editor&project_name=dotnet`);
  const received: string[] = [];
  let handshakeReply: Record<string, unknown> | undefined;
  let serving = true;
  const lists: Record<string, unknown> = {
    RunListTool: [],
    RunListPrompts: [{ name: 'dotnet_prompt', description: 'from .NET', arguments: [{ name: 'topic', required: false }] }],
    RunListResources: [{ uri: 'dotnet://scene', name: 'scene', mimeType: 'text/plain' }],
    RunResourceTemplates: [],
  };
  await raw.handshake();
  // Answers the server's invocations the way the client does: a completion record with a ResponseData envelope.
  const serve = (async () => {
    while (serving) {
      const record = await raw.next().catch(() => undefined);
      if (!record) return;
      if (record['type'] === 3 && record['invocationId'] === 'h') handshakeReply = record['result'] as Record<string, unknown>;
      if (record['type'] !== 1) continue;
      const target = String(record['target']);
      received.push(target);
      const request = (record['arguments'] as Array<{ requestId?: string }>)[0] ?? {};
      if (record['invocationId'] !== undefined) {
        const result = { requestId: request.requestId ?? '', status: 1, errorKind: 0, value: lists[target] ?? null };
        raw.send(JSON.stringify({ type: 3, invocationId: record['invocationId'], result }) + RS);
      }
    }
  })();
  try {
    raw.send(
      JSON.stringify({
        type: 1,
        invocationId: 'h',
        target: 'PerformVersionHandshake',
        arguments: [{ requestId: 'r1', apiVersion: '2.0.0', pluginVersion: '1.0.0', environment: 'Unity 6000.0 (editor)', mcpPluginVersion: '8.16.0' }],
      }) + RS,
    );
    await eventually(() => handshakeReply, 10_000, 'the handshake answer');
    assert.equal(handshakeReply?.['compatible'], true);
    assert.equal('extensions' in (handshakeReply ?? {}), false, 'the 8.x handshake answer is unchanged');

    const agent = await junction.connectAgent();
    await eventually(async () => (await agent.listPrompts()).prompts.some((p) => p.name === 'dotnet_prompt'), 10_000, 'the .NET prompt in the catalogue');
    await eventually(async () => (await agent.listResources()).resources.some((r) => r.uri === 'dotnet://scene'), 10_000, 'the .NET resource in the catalogue');

    const completed = await agent.complete({ ref: { type: 'ref/prompt', name: 'dotnet_prompt' }, argument: { name: 'topic', value: 'x' } });
    assert.deepEqual(completed.completion.values, [], 'a plugin without the completion feature offers no values');
    await agent.subscribeResource({ uri: 'dotnet://scene' });
    await agent.unsubscribeResource({ uri: 'dotnet://scene' });
    await assert.rejects(
      agent.complete({ ref: { type: 'ref/prompt', name: 'not-published' }, argument: { name: 'a', value: '' } }),
      (error: unknown) => error instanceof McpError && (error.data as { code?: string }).code === 'CompletionRefNotFound',
    );
    // The plugin still answers a plain read after all that, so its connection was never disturbed.
    const prompt = await agent.listPrompts();
    assert.ok(prompt.prompts.some((p) => p.name === 'dotnet_prompt'));

    assert.ok(received.includes('RunListPrompts') && received.includes('RunListResources'), `the plugin was asked for its lists: ${received.join(', ')}`);
    assert.deepEqual(received.filter((target) => (EXTENSION_METHODS as string[]).includes(target)), []);
  } finally {
    serving = false;
    raw.close();
    await serve;
    await junction.stop();
  }
});
