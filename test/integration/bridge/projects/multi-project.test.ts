import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startScenePlugin, type RunningScenePlugin } from '../../../../plugins/examples/scene/plugin.js';
import { CLI_SOURCE_FOR_TESTS } from '../../../support/cli.js';
import { DotnetLikePlugin, field } from '../../../support/dotnet-like-plugin.js';
import { eventually, startTestJunction, type TestJunction } from '../../../support/junction-harness.js';

const HASH_A = 'aabbccdd11223344556677889900aabbccddeeff00112233445566778899aabb';
const HASH_B = '11223344aabbccdd556677889900aabbccddeeff00112233445566778899aabb';
const PIN_A = 'aabbccdd';
const PIN_B = '11223344';

type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } };

/** Project B's editor as the .NET client is: its hub query only, PascalCase replies (ReflectorNet keeps declared names), enum names. */
async function connectProjectB(hubUrl: string, instanceId = 'instance-b'): Promise<DotnetLikePlugin> {
  const plugin = await DotnetLikePlugin.connect(hubUrl, {
    instanceId,
    engine: 'unity',
    projectName: 'GameB',
    projectPathHash: HASH_B,
    projectPathHashLegacy: 'ffee0011',
    machineName: 'PC-2',
  });
  const ok = (requestId: unknown, value: unknown) => ({ RequestID: requestId, Status: 'Success', Value: value });
  const id = (request: unknown) => field(request, 'requestId');
  const tool = (name: string) => ({ Name: name, Enabled: true, InputSchema: { type: 'object' } });
  const called = (r: unknown, text: string, structured?: unknown) => ({
    RequestID: id(r),
    Status: 'Success',
    Content: [{ Type: 'text', Text: text }],
    ...(structured === undefined ? {} : { StructuredContent: structured }),
  });
  plugin
    .handle('RunListTool', (r) => ok(id(r), [tool('list-objects'), tool('whoami')]))
    .handle('RunListPrompts', (r) => ok(id(r), []))
    .handle('RunListResources', (r) => ok(id(r), [{ Uri: 'projectb://status', Name: 'status' }]))
    .handle('RunResourceContent', (r) => ok(id(r), [{ Uri: 'projectb://status', MimeType: 'text/plain', Text: 'B is fine' }]))
    .handle('RunResourceTemplates', (r) => ok(id(r), []))
    .handle('RunListSystemTool', (r) => ok(id(r), [tool('ping')]))
    .handle('RunSystemTool', (r) => ok(id(r), called(r, 'pong from B')))
    .handle('RunCallTool', (r) => ok(id(r), called(r, 'project B', { project: 'B', tool: field(r, 'name') })));
  const handshake = await plugin.versionHandshake();
  assert.equal(handshake.compatible, true);
  return plugin;
}

async function agentAt(url: string, name = 'multi-agent'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const toolNames = async (client: Client) => new Set((await client.listTools()).tools.map((t) => t.name));
const texts = (result: CallToolResult) => result.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));

describe('several projects at once (project-routing=multi)', () => {
  let junction: TestJunction;
  let hubUrl: string;
  let editorA: RunningScenePlugin;
  let runtimeA: RunningScenePlugin;
  let projectB: DotnetLikePlugin;
  const clients: Client[] = [];

  const post = async (path: string, body: unknown = {}) => {
    const response = await fetch(`${junction.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  before(async () => {
    junction = await startTestJunction(['project-routing=multi', 'plugin-reconnect-wait-seconds=0']);
    hubUrl = `${junction.baseUrl}/hub/mcp-server`;
    // Junction's SDK plugins of project A: the editor and the runtime build of one app.
    const endpointA = `${hubUrl}?project_path_hash=${HASH_A}&engine=unity&machine_name=PC-1`;
    editorA = await startScenePlugin({ endpoint: endpointA, role: 'editor', name: 'GameA' });
    runtimeA = await startScenePlugin({ endpoint: endpointA, role: 'runtime', name: 'GameA', scene: editorA.scene });
    projectB = await connectProjectB(hubUrl);
    await eventually(async () => {
      const { plugins } = await junction.control.snapshot();
      return plugins.filter((p) => p.toolCount > 0).length === 3;
    }, 10_000, 'three plugins with their tools');
  });
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await Promise.allSettled([editorA.stop(), runtimeA.stop(), projectB.close()]);
    await junction.stop();
  });

  test('plugins are grouped by project; the 8.x client without client_role is its project editor', async () => {
    const { plugins, bridge } = await junction.control.snapshot();
    const a = plugins.filter((p) => p.project?.pin === PIN_A);
    const b = plugins.filter((p) => p.project?.pin === PIN_B);
    assert.deepEqual(a.map((p) => p.role).sort(), ['editor', 'runtime'], 'editor and runtime of A side by side');
    assert.equal(b.length, 1);
    assert.equal(b[0]?.role, 'editor');
    assert.equal(b[0]?.project?.projectName, 'GameB');
    assert.equal(b[0]?.project?.machineName, 'PC-2');
    assert.equal(b[0]?.project?.instanceId, 'instance-b');
    assert.equal(b[0]?.project?.engine, 'unity');
    assert.notEqual(a[0]?.project?.key, b[0]?.project?.key);
    assert.equal(bridge.projectRouting, 'multi');
    const endpoints = new Map((bridge.projects ?? []).map((p) => [p.pin, p]));
    assert.equal(endpoints.get(PIN_B)?.mcpUrl, `${junction.baseUrl}/p/${PIN_B}/mcp`);
    assert.match(endpoints.get(PIN_A)?.snippet ?? '', new RegExp(`/p/${PIN_A}/mcp`));
  });

  test('pinned MCP sessions see and reach only their project', async () => {
    const a = await agentAt(`${junction.baseUrl}/p/${PIN_A}/mcp`);
    const b = await agentAt(`${junction.baseUrl}/p/${PIN_B}/mcp`);
    clients.push(a, b);
    const namesA = await toolNames(a);
    const namesB = await toolNames(b);
    assert.ok(namesA.has('add-object') && !namesA.has('whoami'), 'A lists its own tools only');
    assert.ok(namesB.has('whoami') && !namesB.has('add-object'), 'B lists its own tools only');
    assert.ok(namesA.has('server-status') && namesA.has('list_engine_instances'), 'host and selection tools stay listed');

    const fromB = (await b.callTool({ name: 'list-objects', arguments: {} })) as CallToolResult;
    assert.deepEqual(fromB.structuredContent, { project: 'B', tool: 'list-objects' });
    const fromA = (await a.callTool({ name: 'list-objects', arguments: { limit: 5 } })) as CallToolResult;
    assert.equal(fromA.isError, undefined);
    assert.ok(Array.isArray((fromA.structuredContent as { items: unknown[] }).items), 'the same tool name reaches A when pinned to A');
    const strict = (await a.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
    assert.equal(strict.isError, true, 'a pin never falls through to another project');
    assert.equal((strict.structuredContent as ErrorBody).error.code, 'ToolNotFound');
    // Prompts and resources follow the pin too.
    assert.deepEqual((await a.listPrompts()).prompts.map((p) => p.name), ['use-tool', 'describe-scene'], "the host's prompt, then A's");
    assert.deepEqual((await b.listPrompts()).prompts.map((p) => p.name), ['use-tool']);
    assert.deepEqual((await b.listResources()).resources.map((r) => r.uri), ['projectb://status']);
    assert.ok(!(await a.listResources()).resources.some((r) => r.uri === 'projectb://status'));
    assert.deepEqual((await b.readResource({ uri: 'projectb://status' })).contents, [{ uri: 'projectb://status', mimeType: 'text/plain', text: 'B is fine' }]);
    await assert.rejects(a.readResource({ uri: 'projectb://status' }), /ResourceNotFound|No connected plugin publishes/);
    // A session stays on the route it was opened on.
    const stray = await fetch(`${junction.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': (a.transport as StreamableHTTPClientTransport).sessionId ?? '' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    assert.equal(stray.status, 400);
  });

  test('`junction connect project-pin=…` relays a stdio agent to its project; a malformed pin stops it at start', async () => {
    const agent = new Client({ name: 'stdio-pinned', version: '1.0.0' });
    await agent.connect(
      new StdioClientTransport({ command: process.execPath, args: [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(junction.port), `project-pin=${PIN_B.toUpperCase()}`, 'log-level=error'], stderr: 'pipe' }),
    );
    try {
      const names = await toolNames(agent);
      assert.ok(names.has('whoami') && !names.has('add-object'));
      const result = (await agent.callTool({ name: 'list-objects', arguments: {} })) as CallToolResult;
      assert.deepEqual(result.structuredContent, { project: 'B', tool: 'list-objects' });
    } finally {
      await agent.close();
    }
    const refused = spawnSync(process.execPath, [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(junction.port), 'project-pin=not-a-pin'], {
      encoding: 'utf8',
      timeout: 60_000,
      input: '',
      // No settings file of the person running the tests may change the outcome.
      env: { ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'junction-cfg-')) },
    });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /project-pin: 'not-a-pin' is not 1-64 hexadecimal characters/);
  });

  test('pinned direct HTTP routes: the right project, strict, and 404 naming the project when its editor is gone', async () => {
    const b = await post(`/p/${PIN_B}/api/tools/list-objects`);
    assert.equal(b.status, 200);
    assert.deepEqual(b.body['structuredContent'], { project: 'B', tool: 'list-objects' });
    const legacyPin = await post('/p/ffee/api/tools/whoami');
    assert.equal(legacyPin.status, 200, 'a pin may match the legacy project hash');
    const wrongProject = await post(`/p/${PIN_A}/api/tools/whoami`);
    assert.equal(wrongProject.status, 404);
    const listed = await fetch(`${junction.baseUrl}/p/${PIN_A}/api/tools`);
    const names = ((await listed.json()) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    assert.ok(names.includes('simulate-step') && !names.includes('whoami'));

    const unknown = await post('/p/deadbeef/api/tools/list-objects');
    assert.equal(unknown.status, 404);
    const unknownError = (unknown.body as ErrorBody).error;
    assert.equal(unknownError.code, 'ProjectNotConnected');
    assert.match(unknownError.message, /pin deadbeef/);
    assert.match(unknownError.message, /GameA/, 'the error lists the projects that are connected');
  });

  test('pinned system-tools routes reach the pinned project only', async () => {
    const pong = await post(`/p/${PIN_B}/api/system-tools/ping`);
    assert.equal(pong.status, 200);
    assert.deepEqual((pong.body['content'] as unknown[])[0], { type: 'text', text: 'pong from B' });
    const listed = await fetch(`${junction.baseUrl}/p/${PIN_B}/api/system-tools`);
    assert.deepEqual(((await listed.json()) as { tools: Array<{ name: string }> }).tools.map((t) => t.name), ['ping']);
    const before = projectB.received.filter((r) => r.target === 'RunSystemTool').length;
    const pinnedA = await post(`/p/${PIN_A}/api/system-tools/ping`);
    assert.notEqual(pinnedA.status, 200, "A's SDK plugin has no system tools; the call never falls through to B");
    assert.equal(projectB.received.filter((r) => r.target === 'RunSystemTool').length, before);
    const unknown = await post('/p/deadbeef/api/system-tools/ping');
    assert.equal(unknown.status, 404);
    assert.equal((unknown.body as ErrorBody).error.code, 'ProjectNotConnected');
    assert.equal((await post('/p/nothex/api/system-tools/ping')).status, 400);
  });

  test('malformed pins fail closed with 400 invalid_project_pin and the bridge keeps serving', async () => {
    const cases = [`/p/xyz/api/tools/list-objects`, `/p/${'a'.repeat(65)}/api/tools/list-objects`, `/P/${PIN_A}/api/tools/list-objects`, '/p//mcp', `/p/${PIN_A}%2f/mcp`];
    for (const path of cases) {
      const refused = await post(path);
      assert.equal(refused.status, 400, path);
      assert.equal((refused.body as ErrorBody).error.code, 'invalid_project_pin', path);
    }
    const mcp = await fetch(`${junction.baseUrl}/p/not-hex/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    assert.equal(mcp.status, 400);
    assert.equal(((await mcp.json()) as ErrorBody).error.code, 'invalid_project_pin');
    assert.equal((await post(`/p/${PIN_B}/api/tools/whoami`)).status, 200, 'every plugin is still served');
  });

  test('pinned routes refuse a page on another loopback port, as /mcp and /api do', async () => {
    for (const path of [`/p/${PIN_A}/mcp`, `/p/${PIN_A}/api/tools/list-objects`, '/p/zz/mcp']) {
      const response = await fetch(`${junction.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:1' }, body: '{}' });
      assert.equal(response.status, 403, path);
    }
  });

  test('malformed project fields are refused at the hub; other plugins keep working', async () => {
    for (const projectName of ['../escape', 'bad\\name', 'bell\u0007']) {
      await assert.rejects(
        DotnetLikePlugin.connect(hubUrl, { instanceId: 'bad', projectName, projectPathHash: HASH_B }),
        (error: Error) => /400/.test(error.message) && /InvalidProjectMetadata/.test(error.message),
        JSON.stringify(projectName),
      );
    }
    await assert.rejects(DotnetLikePlugin.connect(hubUrl, { instanceId: 'bad', projectPathHash: 'not-hex!' }), /InvalidProjectMetadata/);
    assert.equal((await post(`/p/${PIN_A}/api/tools/list-objects`)).status, 200);
  });

  test('unpinned sessions: most recently active with a one-time note, then sticky selection switches projects', async () => {
    const agent = await agentAt(`${junction.baseUrl}/mcp`, 'unpinned-agent');
    clients.push(agent);
    // Make B the most recently active project.
    assert.equal((await post(`/p/${PIN_B}/api/tools/whoami`)).status, 200);
    const first = (await agent.callTool({ name: 'list-objects', arguments: {} })) as CallToolResult;
    assert.deepEqual(first.structuredContent, { project: 'B', tool: 'list-objects' });
    assert.ok(texts(first).some((t) => /Routed to unity:GameB on PC-2; use list_engine_instances \/ select_engine_instance/.test(t)), 'the advisory note');
    const second = (await agent.callTool({ name: 'list-objects', arguments: {} })) as CallToolResult;
    assert.ok(!texts(second).some((t) => t.startsWith('Routed to')), 'the note is given once per session');

    const listed = (await agent.callTool({ name: 'list_engine_instances', arguments: {} })) as CallToolResult;
    const items = (listed.structuredContent as { items: Array<{ instanceId: string; projectName?: string; role: string; pin?: string }> }).items;
    assert.deepEqual(items.map((i) => i.pin).sort(), [PIN_B, PIN_A, PIN_A].sort());
    const none = (await agent.callTool({ name: 'list_engine_instances', arguments: { limit: 0 } })) as CallToolResult;
    assert.deepEqual((({ items, hasMore, totalCount }) => ({ items, hasMore, totalCount }))(none.structuredContent as { items: unknown[]; hasMore: boolean; totalCount: number }), { items: [], hasMore: true, totalCount: 3 });
    const instanceA = items.find((i) => i.projectName === 'GameA' && i.role === 'editor')?.instanceId;
    assert.ok(instanceA);

    const selected = (await agent.callTool({ name: 'select_engine_instance', arguments: { instance_id: instanceA } })) as CallToolResult;
    assert.equal(selected.isError, undefined, JSON.stringify(selected));
    const afterSelect = (await agent.callTool({ name: 'list-objects', arguments: { limit: 3 } })) as CallToolResult;
    assert.ok(Array.isArray((afterSelect.structuredContent as { items: unknown[] }).items), 'the selection routes to A');
    const names = await toolNames(agent);
    assert.ok(names.has('add-object') && !names.has('whoami'), 'tools/list follows the selection');

    const byName = (await agent.callTool({ name: 'select_engine_instance', arguments: { project_name: 'gameb' } })) as CallToolResult;
    assert.equal(byName.isError, undefined);
    const backToB = (await agent.callTool({ name: 'list-objects', arguments: {} })) as CallToolResult;
    assert.deepEqual(backToB.structuredContent, { project: 'B', tool: 'list-objects' });

    const missing = (await agent.callTool({ name: 'select_engine_instance', arguments: { instance_id: 'nope' } })) as CallToolResult;
    assert.equal((missing.structuredContent as ErrorBody).error.code, 'ProjectNotConnected');

    const pinned = await agentAt(`${junction.baseUrl}/p/${PIN_A}/mcp`);
    clients.push(pinned);
    const refused = (await pinned.callTool({ name: 'select_engine_instance', arguments: { project_name: 'GameB' } })) as CallToolResult;
    assert.equal((refused.structuredContent as ErrorBody).error.code, 'Conflict', 'a selection never overrides a pin');
  });

  test('when B leaves, its pin fails naming it and an unpinned session with one project just works', async () => {
    await projectB.close();
    await eventually(async () => (await junction.control.snapshot()).plugins.every((p) => p.project?.pin !== PIN_B), 10_000, 'B gone');
    const gone = await post(`/p/${PIN_B}/api/tools/whoami`);
    assert.equal(gone.status, 404);
    assert.match((gone.body as ErrorBody).error.message, /unity:GameB on PC-2 \(pin 11223344\)/);

    const agent = await agentAt(`${junction.baseUrl}/mcp`, 'late-agent');
    clients.push(agent);
    const result = (await agent.callTool({ name: 'add-object', arguments: { name: 'Solo', kind: 'cube' } })) as CallToolResult;
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.ok(!texts(result).some((t) => t.startsWith('Routed to')), 'no note with a single project');
    assert.ok(editorA.scene.list(10).items.some((o) => o.name === 'Solo'));
  });
});
