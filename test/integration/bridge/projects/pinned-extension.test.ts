/**
 * Completion and resource subscriptions with several projects: two SDK plugins in two projects publish
 * the same prompt and the same resource URI; agents pinned to each (`/p/{pin}/mcp`) must reach only
 * their own project's plugin and hear only their own project's updates.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createPlugin, type McpPlugin } from '../../../../plugins/sdk/index.js';
import { eventually, startTestJunction, type TestJunction } from '../../../support/junction-harness.js';

const HASH_A = 'aabbccdd11223344556677889900aabbccddeeff00112233445566778899aabb';
const HASH_B = '11223344aabbccdd556677889900aabbccddeeff00112233445566778899aabb';
const PIN_A = 'aabbccdd';
const PIN_B = '11223344';
const SHARED_URI = 'shared://status';

interface ProjectPlugin {
  plugin: McpPlugin;
  subscriptions: Array<{ uri: string; subscribed: boolean }>;
}

/** One project's editor: the prompt `greet` completes `who` with the project's own names. */
function projectPlugin(hubUrl: string, hash: string, label: string): ProjectPlugin {
  const plugin = createPlugin({ name: `Game${label}`, version: '1.0.0', role: 'editor', endpoint: `${hubUrl}?project_path_hash=${hash}&engine=unity`, reconnectDelaysMs: [100] });
  const subscriptions: ProjectPlugin['subscriptions'] = [];
  plugin
    .tool({ name: `only-${label.toLowerCase()}`, description: `A tool of project ${label} only`, input: z.object({}), handler: () => label })
    .prompt({ name: 'greet', description: 'Greets someone', arguments: [{ name: 'who', required: true }], handler: (args) => `Hello ${args['who'] ?? ''} from ${label}` })
    .resource({ uri: SHARED_URI, name: 'status', mimeType: 'text/plain', read: () => `${label} is fine` })
    .completion(({ argument }) => {
      const values = [`${label}-one`, `${label}-two`].filter((v) => v.startsWith(argument.value));
      return { values, total: values.length, hasMore: false };
    });
  plugin.on('subscription', (event) => void subscriptions.push(event));
  return { plugin, subscriptions };
}

async function pinnedAgent(baseUrl: string, pin: string): Promise<{ client: Client; updated: string[] }> {
  const client = new Client({ name: `agent-${pin}`, version: '1.0.0' });
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/p/${pin}/mcp`)));
  return { client, updated };
}

describe('completion and subscriptions follow the project pin (project-routing=multi)', () => {
  let junction: TestJunction;
  let a: ProjectPlugin;
  let b: ProjectPlugin;
  const clients: Client[] = [];

  before(async () => {
    junction = await startTestJunction(['project-routing=multi', 'plugin-reconnect-wait-seconds=0']);
    const hubUrl = `${junction.baseUrl}/hub/mcp-server`;
    a = projectPlugin(hubUrl, HASH_A, 'A');
    b = projectPlugin(hubUrl, HASH_B, 'B');
    await Promise.all([a.plugin.connect(), b.plugin.connect()]);
    await eventually(
      () => [PIN_A, PIN_B].every((pin) => junction.bridge.content.listPrompts({ pin }).prompts.some((p) => p.name === 'greet') && junction.bridge.tools.listTools({ pin }).length === 1),
      10_000,
      'both projects publish greet',
    );
  });
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await Promise.allSettled([a.plugin.disconnect(), b.plugin.disconnect()]);
    await junction.stop();
  });

  test("completion/complete reaches the plugin of the agent's pinned project", async () => {
    const agentA = await pinnedAgent(junction.baseUrl, PIN_A);
    const agentB = await pinnedAgent(junction.baseUrl, PIN_B);
    clients.push(agentA.client, agentB.client);
    const ref = { type: 'ref/prompt' as const, name: 'greet' };
    assert.deepEqual((await agentA.client.complete({ ref, argument: { name: 'who', value: '' } })).completion, { values: ['A-one', 'A-two'], total: 2, hasMore: false });
    assert.deepEqual((await agentB.client.complete({ ref, argument: { name: 'who', value: 'B-t' } })).completion, { values: ['B-two'], total: 1, hasMore: false });
    // The host's tool-name completion offers the pinned project's tools, as tools/list does.
    const tools = { type: 'ref/prompt' as const, name: 'use-tool' };
    assert.deepEqual((await agentA.client.complete({ ref: tools, argument: { name: 'tool', value: 'only-' } })).completion.values, ['only-a']);
    assert.deepEqual((await agentB.client.complete({ ref: tools, argument: { name: 'tool', value: 'only-' } })).completion.values, ['only-b']);
    const template = { type: 'ref/resource' as const, uri: SHARED_URI };
    assert.deepEqual((await agentB.client.complete({ ref: template, argument: { name: 'x', value: '' } })).completion.values, ['B-one', 'B-two']);
  });

  test('each project hears of its own subscribers, and an update reaches only its own project’s subscribers', async () => {
    const agentA = await pinnedAgent(junction.baseUrl, PIN_A);
    const agentB = await pinnedAgent(junction.baseUrl, PIN_B);
    clients.push(agentA.client, agentB.client);
    await agentA.client.subscribeResource({ uri: SHARED_URI });
    await agentB.client.subscribeResource({ uri: SHARED_URI });
    await eventually(() => a.subscriptions.length === 1 && b.subscriptions.length === 1, 5_000, 'both owners told of their first subscriber');
    assert.deepEqual([a.subscriptions[0], b.subscriptions[0]], [{ uri: SHARED_URI, subscribed: true }, { uri: SHARED_URI, subscribed: true }]);
    assert.equal(junction.bridge.extensionCounts().subscribedResources, 2, 'one topic per project');

    b.plugin.notifyResourceUpdated(SHARED_URI);
    await eventually(() => agentB.updated.length === 1, 5_000, "B's update reaches B's subscriber");
    a.plugin.notifyResourceUpdated(SHARED_URI);
    await eventually(() => agentA.updated.length === 1, 5_000, "A's update reaches A's subscriber");
    // Each agent's notifications arrive in order, so by now A would have heard B's earlier update too.
    assert.deepEqual(agentA.updated, [SHARED_URI]);
    assert.deepEqual(agentB.updated, [SHARED_URI]);

    await agentA.client.unsubscribeResource({ uri: SHARED_URI });
    await eventually(() => a.subscriptions.length === 2, 5_000, 'A told its last subscriber left');
    assert.deepEqual(a.subscriptions[1], { uri: SHARED_URI, subscribed: false });
    assert.equal(b.subscriptions.length, 1, "B's subscriber is still there");
    await (agentB.client.transport as StreamableHTTPClientTransport).terminateSession();
    await eventually(() => b.subscriptions.length === 2 && junction.bridge.extensionCounts().subscribedResources === 0, 5_000, 'B released with its session');
  });
});
