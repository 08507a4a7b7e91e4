/**
 * Pins that stop being unique, and selections whose project left (issue 23.6), against a real Junction
 * with project-routing=multi and real SignalR plugins written as the .NET client writes. projA
 * (path hash aaaaaaaa11111111) connects alone, so its pin is `aaaaaaaa`; projB (aaaaaaaa22222222)
 * then shares that prefix. An agent still using `aaaaaaaa` must hear which projects it could mean
 * (409 ProjectPinAmbiguous), never be served by whichever connected last; a session that selected a
 * project that left must hear ProjectNotConnected, never be served by another project.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DotnetLikePlugin, field } from '../../../support/dotnet-like-plugin.js';
import { eventually, startTestJunction, type TestJunction } from '../../../support/junction-harness.js';

const HASH_A = 'aaaaaaaa11111111';
const HASH_B = 'aaaaaaaa22222222';
const HASH_C = 'cccccccc33333333';
const SHARED_PIN = 'aaaaaaaa';

type ErrorBody = { error: { code: string; message: string; next?: { kind: string; tools: string[] }; details?: Record<string, unknown> } };

/** One project's editor as the .NET client is: hub query only, PascalCase replies, a `whoami` tool, a resource and a system tool. */
async function connectProject(hubUrl: string, name: string, hash: string): Promise<DotnetLikePlugin> {
  const plugin = await DotnetLikePlugin.connect(hubUrl, { instanceId: `instance-${name}`, engine: 'unity', projectName: name, projectPathHash: hash, machineName: 'PC' });
  const id = (r: unknown) => field(r, 'requestId');
  const ok = (r: unknown, value: unknown) => ({ RequestID: id(r), Status: 'Success', Value: value });
  const tool = (toolName: string) => ({ Name: toolName, Enabled: true, InputSchema: { type: 'object' } });
  plugin
    .handle('RunListTool', (r) => ok(r, [tool('whoami')]))
    .handle('RunListPrompts', (r) => ok(r, []))
    .handle('RunListResources', (r) => ok(r, [{ Uri: 'project://status', Name: 'status' }]))
    .handle('RunResourceTemplates', (r) => ok(r, []))
    .handle('RunResourceContent', (r) => ok(r, [{ Uri: 'project://status', MimeType: 'text/plain', Text: `${name} is fine` }]))
    .handle('RunListSystemTool', (r) => ok(r, [tool('ping')]))
    .handle('RunSystemTool', (r) => ok(r, { RequestID: id(r), Status: 'Success', Content: [{ Type: 'text', Text: `pong from ${name}` }] }))
    .handle('RunCallTool', (r) => ok(r, { RequestID: id(r), Status: 'Success', Content: [{ Type: 'text', Text: name }], StructuredContent: { project: name } }));
  assert.equal((await plugin.versionHandshake()).compatible, true);
  return plugin;
}

async function agentAt(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const whoami = async (client: Client) => (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;

describe('prefix-colliding pins and departed selections (project-routing=multi)', () => {
  let junction: TestJunction;
  let hubUrl: string;
  const plugins: DotnetLikePlugin[] = [];
  const clients: Client[] = [];
  let projB: DotnetLikePlugin;

  const post = async (path: string) => {
    const response = await fetch(`${junction.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const projectsLive = async (count: number) =>
    eventually(async () => (await junction.control.snapshot()).plugins.filter((p) => p.toolCount > 0 && p.state === 'connected').length === count, 10_000, `${count} projects`);

  before(async () => {
    junction = await startTestJunction(['project-routing=multi', 'plugin-reconnect-wait-seconds=0']);
    hubUrl = `${junction.baseUrl}/hub/mcp-server`;
  });
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await Promise.allSettled(plugins.map((p) => p.close()));
    await junction.stop();
  });

  test('a pin that became ambiguous answers 409 naming both projects, over MCP, /api and /api/system-tools', async () => {
    const projA = await connectProject(hubUrl, 'projA', HASH_A);
    plugins.push(projA);
    await projectsLive(1);
    const agent = await agentAt(`${junction.baseUrl}/p/${SHARED_PIN}/mcp`, 'pinned-before-b');
    clients.push(agent);
    assert.deepEqual((await whoami(agent)).structuredContent, { project: 'projA' }, "the pin is projA's while it is alone");
    assert.equal((await junction.control.snapshot()).bridge.projects?.[0]?.pin, SHARED_PIN);

    projB = await connectProject(hubUrl, 'projB', HASH_B);
    plugins.push(projB);
    await projectsLive(2);
    const callsOfB = () => projB.received.filter((r) => r.target === 'RunCallTool').length;
    const before = callsOfB();

    const ambiguous = await whoami(agent);
    assert.equal(ambiguous.isError, true, JSON.stringify(ambiguous));
    const error = (ambiguous.structuredContent as ErrorBody).error;
    assert.equal(error.code, 'ProjectPinAmbiguous');
    assert.match(error.message, /unity:projA on PC/);
    assert.match(error.message, /unity:projB on PC/);
    assert.deepEqual(
      (error.details?.['candidates'] as Array<{ label: string; pin: string }>).map((c) => [c.label, c.pin]).sort(),
      [['unity:projA on PC', 'aaaaaaaa1'], ['unity:projB on PC', 'aaaaaaaa2']],
    );
    assert.equal(error.details?.['pin'], SHARED_PIN);
    assert.deepEqual(error.next, { kind: 'resolveTargetAgain', tools: ['list_engine_instances'] });
    assert.ok(!(await agent.listTools()).tools.some((t) => t.name === 'whoami'), 'an ambiguous pin lists no plugin tools');
    await assert.rejects(agent.readResource({ uri: 'project://status' }), /ProjectPinAmbiguous|aaaaaaaa1/);

    const http = await post(`/p/${SHARED_PIN}/api/tools/whoami`);
    assert.equal(http.status, 409);
    assert.equal((http.body as ErrorBody).error.code, 'ProjectPinAmbiguous');
    const system = await post(`/p/${SHARED_PIN}/api/system-tools/ping`);
    assert.equal(system.status, 409);
    assert.equal((system.body as ErrorBody).error.code, 'ProjectPinAmbiguous');
    assert.equal(callsOfB(), before, 'projB served nothing of the ambiguous pin');

    // The pins each project has now reach exactly it.
    assert.deepEqual((await post('/p/aaaaaaaa1/api/tools/whoami')).body['structuredContent'], { project: 'projA' });
    assert.deepEqual((await post('/p/aaaaaaaa2/api/tools/whoami')).body['structuredContent'], { project: 'projB' });
    const pins = ((await junction.control.snapshot()).bridge.projects ?? []).map((p) => p.pin).sort();
    assert.deepEqual(pins, ['aaaaaaaa1', 'aaaaaaaa2']);
  });

  test('a selected project that left answers ProjectNotConnected, never another project', async () => {
    const projC = await connectProject(hubUrl, 'projC', HASH_C);
    plugins.push(projC);
    await projectsLive(3);
    const agent = await agentAt(`${junction.baseUrl}/mcp`, 'selects-b');
    clients.push(agent);
    const selected = (await agent.callTool({ name: 'select_engine_instance', arguments: { instance_id: 'instance-projB' } })) as CallToolResult;
    assert.equal(selected.isError, undefined, JSON.stringify(selected));
    assert.deepEqual((await whoami(agent)).structuredContent, { project: 'projB' });

    await projB.close();
    await projectsLive(2);
    const callsOfC = () => projC.received.filter((r) => r.target === 'RunCallTool').length;
    const before = callsOfC();

    const gone = await whoami(agent);
    assert.equal(gone.isError, true, `served by ${JSON.stringify(gone.structuredContent)}`);
    const error = (gone.structuredContent as ErrorBody).error;
    assert.equal(error.code, 'ProjectNotConnected');
    assert.match(error.message, /unity:projB on PC/);
    assert.deepEqual(error.next, { kind: 'resolveTargetAgain', tools: ['list_engine_instances'] });
    assert.equal(callsOfC(), before, 'projC served nothing of the session that chose projB');
    assert.ok(!(await agent.listTools()).tools.some((t) => t.name === 'whoami'), 'the session lists no other project\'s tools');

    // Choosing again works, and so does projB coming back under the same selection.
    const reselected = (await agent.callTool({ name: 'select_engine_instance', arguments: { project_name: 'projC' } })) as CallToolResult;
    assert.equal(reselected.isError, undefined, JSON.stringify(reselected));
    assert.deepEqual((await whoami(agent)).structuredContent, { project: 'projC' });
  });
});
