/**
 * A Junction SDK plugin on a bridge that took the MCP extension but lists neither `roots` nor
 * `contentRequests` (a Junction from before them): `ctx.listRoots()` and a prompt handler's questions
 * reject with CapabilityUnavailable at once and send the bridge nothing it would not know, while a
 * tool's elicitation still goes out as before. A real hub server stands in for that bridge.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { AgentRequestError, createPlugin } from '../../../../plugins/sdk/index.js';
import { PluginToServer, ResponseStatus, ServerToPlugin, successData } from '../../../../plugins/sdk/wire/index.js';
import type { HubConnection } from '../../../../src-main/bridge/signalr/index.js';
import { once, startHub } from '../signalr/hub-harness.js';

const codeOf = async (work: () => Promise<unknown>) => work().then(() => 'answered', (error: unknown) => (error instanceof AgentRequestError ? error.code : String(error)));

test('an older bridge: roots and questions outside tool calls are CapabilityUnavailable in the plugin; elicitation in a tool goes out', async () => {
  const harness = await startHub();
  const received: string[] = [];
  harness.hub.on(PluginToServer.PerformVersionHandshake, () => ({ apiVersion: '2.0.0', serverVersion: '8.16.0', compatible: true, message: '', extensions: { version: 1, features: ['elicitation', 'sampling', 'logging'] } }));
  for (const method of [PluginToServer.NotifyAboutUpdatedTools, PluginToServer.NotifyAboutUpdatedPrompts, PluginToServer.NotifyAboutUpdatedResources]) harness.hub.on(method, () => successData(''));
  for (const method of [PluginToServer.RequestElicitation, PluginToServer.RequestRoots]) {
    harness.hub.on(method, (_connection, raw) => {
      received.push(method);
      return successData((raw as { requestId: string }).requestId, { action: 'decline' });
    });
  }
  const plugin = createPlugin({ name: 'modern-sdk', version: '1.0.0', role: 'editor', endpoint: harness.url, skipNegotiation: true });
  plugin
    .tool({
      name: 'ask',
      description: 'Asks for roots, then elicits',
      input: z.object({}),
      handler: async (_args, ctx) => ({ roots: await codeOf(() => ctx.listRoots()), elicit: await codeOf(() => ctx.elicit('Sure?', { type: 'object', properties: {} }, { key: 'sure' })) }),
    })
    .prompt({ name: 'asking', description: 'Asks before it renders', handler: async (_args, ctx) => `elicit: ${await codeOf(() => ctx.elicit('Topic?', { type: 'object', properties: {} }))}` });
  const connection = once<HubConnection>((listener) => harness.hub.events.on('connected', listener));
  try {
    await plugin.connect();
    const hubSide = await connection;
    const call = (await hubSide.invoke(ServerToPlugin.RunCallTool, [{ requestId: 'c1', name: 'ask', arguments: {} }])) as { status: number; value: { structuredContent: unknown } };
    assert.equal(call.status, ResponseStatus.Success);
    assert.deepEqual(call.value.structuredContent, { roots: 'CapabilityUnavailable', elicit: 'answered' });
    const prompt = (await hubSide.invoke(ServerToPlugin.RunGetPrompt, [{ requestId: 'p1', name: 'asking', arguments: {} }])) as { value: { messages: Array<{ content: { text: string } }> } };
    assert.equal(prompt.value.messages[0]?.content.text, 'elicit: CapabilityUnavailable');
    assert.deepEqual(received, [PluginToServer.RequestElicitation], 'only the tool\'s elicitation reached the bridge');
  } finally {
    await plugin.disconnect();
    await harness.stop();
  }
});
