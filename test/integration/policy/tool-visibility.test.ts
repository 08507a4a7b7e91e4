/**
 * Visibility rules on the real stack: real MCP SDK clients naming themselves `reader` and `writer` over
 * streamable HTTP, `junction connect` over stdio and a pinned route, plain HTTP on /api, two projects
 * behind the bridge (Junction's SDK plugin as GameA, a .NET-like client as GameB), and the operator's
 * "agents see this" switch through the control API, the door the console uses.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startScenePlugin, type RunningScenePlugin } from '../../../plugins/examples/scene/plugin.js';
import type { CallApprovalView, ControlEvent, PolicyDocument } from '../../../src-main/contracts/console.js';
import { readTrail } from '../../support/audit-store.js';
import { CLI_SOURCE_FOR_TESTS } from '../../support/cli.js';
import { DotnetLikePlugin, field } from '../../support/dotnet-like-plugin.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const HASH_A = 'aabbccdd11223344556677889900aabbccddeeff00112233445566778899aabb';
const HASH_B = '11223344aabbccdd556677889900aabbccddeeff00112233445566778899aabb';
const PIN_B = '11223344';

const POLICY: PolicyDocument = {
  rules: [
    { tool: 'whoami', agent: 'writer', action: 'ask', reason: 'writers ask before whoami' },
    // Profile "read-only agents": the reader sees only tools that say they only read.
    { agent: 'reader', annotations: { readOnlyHint: false }, action: 'hide', reason: 'read-only agent' },
    // Profile "one project per agent": the writer never sees GameA's plugin tools.
    { agent: 'writer', project: 'GameA', action: 'hide' },
    { agent: 'http', tool: 'whoami', action: 'hide' },
    { tool: 'transaction-*', action: 'ask', reason: 'an ask rule holds what the reader cannot see' },
  ],
};

type JsonRpcError = { code: number; message: string; data?: unknown };

async function rpcError(work: Promise<unknown>): Promise<JsonRpcError> {
  try {
    await work;
  } catch (error) {
    const e = error as JsonRpcError;
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error('the call did not fail');
}

describe('what each agent sees (visibility rules)', () => {
  let dir: string;
  let stateDir: string;
  let policyPath: string;
  let junction: TestJunction;
  let sceneA: RunningScenePlugin;
  let projectB: DotnetLikePlugin;
  let whoamiRuns = 0;
  const clients: Client[] = [];
  const events: ControlEvent[] = [];

  const agent = async (name: string, path = '/mcp') => {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}${path}`)));
    clients.push(client);
    return client;
  };
  const stdioAgent = async (name: string) => {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(junction.port), 'log-level=error'], stderr: 'pipe' }));
    clients.push(client);
    return client;
  };
  const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
  const version = async () => (await junction.control.snapshot()).policy!.version;
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${junction.baseUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, text: await response.text() };
  };
  const listChanges = (client: Client) => {
    const seen: number[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      seen.push(Date.now());
    });
    return seen;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junction-visibility-'));
    stateDir = join(dir, 'state');
    policyPath = join(dir, 'policy.json');
    await writeFile(policyPath, JSON.stringify(POLICY, null, 2));
    junction = await startTestJunction([`approval-policy=${policyPath}`, `state-dir=${stateDir}`, 'project-routing=multi', 'plugin-reconnect-wait-seconds=0', 'approval-timeout=20']);
    junction.control.subscribe((e) => events.push(e));
    const hub = `${junction.baseUrl}/hub/mcp-server`;
    sceneA = await startScenePlugin({ endpoint: `${hub}?project_path_hash=${HASH_A}&project_name=GameA&engine=unity`, role: 'editor', name: 'GameA' });
    projectB = await DotnetLikePlugin.connect(hub, { instanceId: 'instance-b', engine: 'unity', projectName: 'GameB', projectPathHash: HASH_B, machineName: 'PC-2' });
    const ok = (r: unknown, value: unknown) => ({ RequestID: field(r, 'requestId'), Status: 'Success', Value: value });
    const tool = (name: string) => ({ Name: name, Enabled: true, InputSchema: { type: 'object' } });
    projectB
      // transaction-start collides with the host's own (which wins), for server-status's diagnostics.
      .handle('RunListTool', (r) => ok(r, [tool('list-objects'), tool('whoami'), tool('transaction-start')]))
      .handle('RunListPrompts', (r) => ok(r, []))
      .handle('RunListResources', (r) => ok(r, []))
      .handle('RunResourceTemplates', (r) => ok(r, []))
      .handle('RunListSystemTool', (r) => ok(r, []))
      .handle('RunCallTool', (r) => {
        if (field(r, 'name') === 'whoami') whoamiRuns += 1;
        return ok(r, { RequestID: field(r, 'requestId'), Status: 'Success', Content: [{ Type: 'text', Text: 'GameB' }], StructuredContent: { project: 'B' } });
      });
    assert.equal((await projectB.versionHandshake()).compatible, true);
    await eventually(async () => (await junction.control.snapshot()).plugins.filter((p) => p.toolCount > 0).length === 2, 10_000, 'both projects with their tools');
  });
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await Promise.allSettled([sceneA?.stop(), projectB?.close()]);
    await junction?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('two agents see different tools/list over /mcp, stdio and a pinned route', async () => {
    const everything = await junction.control.tools();
    const readOnly = new Set(everything.filter((t) => t.annotations?.['readOnlyHint'] === true).map((t) => t.name));
    const pinnedReader = await names(await agent('reader', `/p/${PIN_B}/mcp`));
    const pinnedWriter = await names(await agent('writer', `/p/${PIN_B}/mcp`));
    assert.ok(pinnedWriter.includes('whoami') && pinnedWriter.includes('list-objects'), 'the writer pinned to GameB sees its tools');
    assert.ok(!pinnedReader.includes('whoami') && !pinnedReader.includes('list-objects'), 'the reader does not: they do not say they only read');
    assert.ok(pinnedReader.length > 0 && pinnedReader.every((n) => readOnly.has(n)), `the reader sees read-only tools only: ${pinnedReader.join(', ')}`);
    assert.ok(pinnedReader.includes('server-status') && pinnedReader.includes('document-read'));

    // Unpinned, with both projects live, sessions go to the most recently active project (GameB here)
    // unless they select one; over stdio the same rules hold for the client's own name.
    const httpReader = await names(await agent('reader'));
    const stdioReader = await names(await stdioAgent('reader'));
    const stdioWriter = await names(await stdioAgent('writer'));
    assert.deepEqual(stdioReader, httpReader, 'stdio and /mcp agree for the same agent');
    assert.ok(httpReader.every((n) => readOnly.has(n)));
    assert.ok(stdioWriter.includes('transaction-start') && !stdioReader.includes('transaction-start'));
    assert.notDeepEqual(stdioReader, stdioWriter);
  });

  test("server-status names a name collision only to agents who see that tool", async () => {
    const collisions = async (client: Client) => {
      const result = await client.callTool({ name: 'server-status', arguments: { detail: 'Full' } });
      const providers = (result.structuredContent as { providers: { catalogue: { collisions: Array<{ tool: string }> } } }).providers;
      return providers.catalogue.collisions.map((c) => c.tool);
    };
    assert.ok((await collisions(await agent('writer', `/p/${PIN_B}/mcp`))).includes('transaction-start'), 'the writer sees transaction-start, and its collision');
    assert.ok(!(await collisions(await agent('reader', `/p/${PIN_B}/mcp`))).includes('transaction-start'), 'the reader, from whom it is hidden, is not told it exists');
  });

  test('one project per agent: the writer never sees GameA tools, even pinned to GameA', async () => {
    const pinA = HASH_A.slice(0, 8);
    const writerOnA = await names(await agent('writer', `/p/${pinA}/mcp`));
    const otherOnA = await names(await agent('someone-else', `/p/${pinA}/mcp`));
    assert.ok(otherOnA.includes('add-object'), 'another agent pinned to GameA sees its plugin tools');
    assert.ok(!writerOnA.includes('add-object') && writerOnA.includes('server-status'), 'the writer sees the host tools only');
    const view = await junction.control.agentCatalogue({ agentName: 'writer', pin: pinA });
    assert.deepEqual(view.tools.map((t) => t.name).sort(), writerOnA, 'the console shows exactly the catalogue the agent sees');
  });

  test("prompts and resources likewise: a plugin hidden from an agent lends it no prompt or resource, and naming one answers as unknown", async () => {
    const pinA = HASH_A.slice(0, 8);
    const other = await agent('someone-else', `/p/${pinA}/mcp`);
    const writer = await agent('writer', `/p/${pinA}/mcp`);
    assert.ok((await other.listPrompts()).prompts.some((p) => p.name === 'describe-scene'));
    assert.ok((await other.listResources()).resources.some((r) => r.uri === 'scene://objects'));
    assert.ok((await other.readResource({ uri: 'scene://objects' })).contents.length > 0);
    assert.deepEqual((await writer.listPrompts()).prompts.filter((p) => p.name === 'describe-scene'), []);
    assert.deepEqual((await writer.listResources()).resources.filter((r) => r.uri.startsWith('scene://')), []);
    const same = (hidden: JsonRpcError, unknown: JsonRpcError, a: string, b: string) => assert.equal(JSON.stringify(hidden).replaceAll(a, b), JSON.stringify(unknown));
    same(await rpcError(writer.readResource({ uri: 'scene://objects' })), await rpcError(writer.readResource({ uri: 'scene://objectz' })), 'scene://objects', 'scene://objectz');
    same(await rpcError(writer.getPrompt({ name: 'describe-scene' })), await rpcError(writer.getPrompt({ name: 'describe-scenf' })), 'describe-scene', 'describe-scenf');
    await assert.rejects(writer.subscribeResource({ uri: 'scene://objects' }), /No connected plugin publishes the resource 'scene:\/\/objects'/);
  });

  test('a hidden tool called by name answers exactly as an unknown one, on /mcp, stdio, a pinned route and /api', async () => {
    const same = (hidden: JsonRpcError, unknown: JsonRpcError, hiddenName: string, unknownName: string) =>
      assert.equal(JSON.stringify(hidden).replaceAll(hiddenName, unknownName), JSON.stringify(unknown));
    for (const client of [await agent('reader', `/p/${PIN_B}/mcp`), await agent('reader'), await stdioAgent('reader')]) {
      const hidden = await rpcError(client.callTool({ name: 'whoami', arguments: {} }));
      const unknown = await rpcError(client.callTool({ name: 'whoamx', arguments: {} }));
      assert.equal(hidden.code, -32602);
      same(hidden, unknown, 'whoami', 'whoamx');
      // Held by an ask rule, yet hidden: unknown at once, never held for the operator.
      const heldHidden = await rpcError(client.callTool({ name: 'transaction-start', arguments: {} }));
      assert.match(heldHidden.message, /not in the catalogue/);
    }
    assert.equal(events.filter((e) => e.type === 'callApproval.requested').length, 0, 'no hidden call was held');

    for (const prefix of ['', `/p/${PIN_B}`]) {
      const hidden = await api('POST', `${prefix}/api/tools/whoami`, {});
      const unknown = await api('POST', `${prefix}/api/tools/whoamx`, {});
      assert.equal(hidden.status, 404);
      assert.equal(hidden.text.replaceAll('whoami', 'whoamx'), unknown.text, 'byte for byte, name aside');
      const listed = JSON.parse((await api('GET', `${prefix}/api/tools`)).text) as { tools: Array<{ name: string }> };
      assert.ok(!listed.tools.some((t) => t.name === 'whoami') && listed.tools.some((t) => t.name === 'list-objects'));
    }
    assert.equal(whoamiRuns, 0, 'no hidden call reached the plugin');
  });

  test('the same rules hold for a stateless MCP 2026-07-28 agent: its list, and a hidden tool answering as an unknown one', async () => {
    // No SDK speaks the revision yet, so the requests are raw: the agent names itself in _meta, not in initialize.
    const modern = async (path: string, agentName: string, method: string, params: Record<string, unknown> = {}) => {
      const response = await fetch(`${junction.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {}) },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: agentName, version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
        }),
      });
      return (await response.json()) as { result?: { tools?: Array<{ name: string }> }; error?: JsonRpcError };
    };
    const path = `/p/${PIN_B}/mcp`;
    const readerList = (await modern(path, 'reader', 'tools/list')).result!.tools!.map((t) => t.name).sort();
    const writerList = (await modern(path, 'writer', 'tools/list')).result!.tools!.map((t) => t.name).sort();
    assert.deepEqual(readerList, await names(await agent('reader', path)), 'a 2026 reader sees what a 2025 reader sees');
    assert.ok(writerList.includes('whoami') && !readerList.includes('whoami'));
    const hidden = (await modern(path, 'reader', 'tools/call', { name: 'whoami', arguments: {} })).error!;
    const unknown = (await modern(path, 'reader', 'tools/call', { name: 'whoamx', arguments: {} })).error!;
    assert.ok(hidden, 'the hidden tool is refused');
    assert.equal(JSON.stringify(hidden).replaceAll('whoami', 'whoamx'), JSON.stringify(unknown));
    assert.equal(whoamiRuns, 0, 'no hidden call reached the plugin');
  });

  test('the console switch reaches a connected agent as list_changed, only the sessions it affects, and lands in the audit trail', async () => {
    const writer = await agent('writer', `/p/${PIN_B}/mcp`);
    const reader = await agent('reader', `/p/${PIN_B}/mcp`);
    await names(writer);
    await names(reader);
    const writerChanges = listChanges(writer);
    const readerChanges = listChanges(reader);
    const switchedAt = Date.now();
    const hidden = await junction.control.setToolVisible({ tool: 'list-objects', visible: false, baseVersion: await version() });
    assert.deepEqual(hidden.document.rules[0], { tool: 'list-objects', action: 'hide', reason: 'hidden from agents by the operator' });
    await eventually(() => writerChanges.length > 0, 5000, 'list_changed at the writer');
    console.log(`list_changed reached the agent ${writerChanges[0]! - switchedAt} ms after the switch was sent`);
    assert.ok(!(await names(writer)).includes('list-objects'));
    const gone = await rpcError(writer.callTool({ name: 'list-objects', arguments: {} }));
    assert.match(gone.message, /not in the catalogue/);
    // The reader never saw list-objects, so its list did not change. (The writer's arrival shows
    // the switch has gone out; the reader's would have been sent in the same turn.)
    assert.equal(readerChanges.length, 0);

    const shown = await junction.control.setToolVisible({ tool: 'list-objects', visible: true, baseVersion: hidden.version });
    assert.deepEqual(shown.document.rules, POLICY.rules);
    await eventually(() => writerChanges.length > 1, 5000, 'the second list_changed');
    assert.ok((await names(writer)).includes('list-objects'));

    const onDisk = JSON.parse(await readFile(policyPath, 'utf8')) as PolicyDocument;
    assert.deepEqual(onDisk.rules, POLICY.rules, 'the file holds what is in force');
    const trail = await eventually(() => {
      const rows = readTrail(join(stateDir, 'audit', 'audit.db'), (db) => db.prepare("SELECT data FROM events WHERE kind = 'policy.edited' ORDER BY seq").all() as Array<{ data: string }>);
      const changes = rows.map((r) => (JSON.parse(r.data) as { change: { kind: string; rule?: { tool?: string } } }).change).filter((c) => c.kind === 'visibility');
      return changes.length >= 2 && changes;
    }, 5000, 'the switches in the audit trail');
    assert.deepEqual(trail.map((c) => c.rule?.tool), ['list-objects', 'list-objects']);
  });

  test('a switch racing a hand edit of the policy file is refused with Conflict and writes nothing', async () => {
    const base = await version();
    const hand = JSON.stringify({ rules: [...POLICY.rules, { tool: 'nothing-*', action: 'deny' }] });
    await writeFile(policyPath, hand);
    await assert.rejects(junction.control.setToolVisible({ tool: 'list-objects', visible: false, baseVersion: base }), (e: Error & { code?: string }) => e.code === 'Conflict');
    assert.equal(await readFile(policyPath, 'utf8'), hand, 'the hand edit is untouched');
    await eventually(async () => (await version()) > base, 5000, 'the hand edit to load');
  });

  test('a call held while its tool is hidden never runs: the agent hears the unknown-tool answer', async () => {
    const writer = await agent('writer', `/p/${PIN_B}/mcp`);
    const calling = rpcError(writer.callTool({ name: 'whoami', arguments: {} }, undefined, { timeout: 30_000 }));
    const requested = (askId?: string) => events.flatMap((e) => (e.type === 'callApproval.requested' && (askId === undefined || e.approval.askId === askId) ? [e.approval] : []));
    const held = await eventually(() => requested().find((a: CallApprovalView) => a.tool === 'whoami'), 10_000, 'the held whoami');
    await junction.control.setToolVisible({ tool: 'whoami', visible: false, baseVersion: await version() });
    const current = await eventually(() => requested(held.askId).at(-1)?.policyVersion === held.policyVersion + 1 && requested(held.askId).at(-1), 5000, 'the held call re-bound to the new policy');
    await junction.control.decideCall({ askId: current.askId, digest: current.digest, decision: 'allow-once' });
    const answered = await calling;
    const unknown = await rpcError(writer.callTool({ name: 'whoamx', arguments: {} }));
    assert.equal(JSON.stringify(answered).replaceAll('whoami', 'whoamx'), JSON.stringify(unknown));
    assert.equal(whoamiRuns, 0, 'the hidden tool never ran');
  });
});
