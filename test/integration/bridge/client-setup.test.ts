/**
 * Setup for every common client, checked as the client would use it: each snippet of the Bridge view
 * (unpinned, and a project's pinned route) is read in its client's format (the file against a JSON
 * Schema of that format, a command split into shell words and read with its CLI's grammar), and what
 * it names is then used exactly: the stdio command spawned from another directory with the real MCP
 * SDK client, or the URL connected with its headers. The Junction runs with auth=token, so every
 * snippet must carry the token the way its client passes it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startScenePlugin, type RunningScenePlugin } from '../../../plugins/examples/scene/plugin.js';
import type { ClientSnippetView } from '../../../src-main/contracts/index.js';
import { isolatedEnv } from '../../support/cli.js';
import { CLIENT_FILE_SCHEMAS, launchOf, readClaudeCodeCommand, readClientFile, readCurlCommand, readInspectorCommand, type ClientFile, type Launch } from '../../support/client-formats.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const TOKEN = 'client-setup-token-0123456789';
const HASH = 'c0ffee00112233445566778899aabbccddeeff00112233445566778899aabbcc';
const PIN = 'c0ffee00';

/** A launcher's working directory is not this repository. */
const elsewhere = mkdtempSync(join(tmpdir(), 'junction-client-cwd-'));

async function toolsVia(launch: Launch): Promise<string[]> {
  const client = new Client({ name: 'setup-check', version: '1.0.0' });
  const transport =
    launch.kind === 'stdio'
      ? new StdioClientTransport({ command: launch.command, args: launch.args, env: { ...isolatedEnv(), ...launch.env }, cwd: elsewhere, stderr: 'pipe' })
      : new StreamableHTTPClientTransport(new URL(launch.url), { requestInit: { headers: launch.headers } });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

/** What one snippet names, read the way its client reads it. */
function launchesOf(snippet: ClientSnippetView, all: readonly ClientSnippetView[]): Launch[] {
  if (snippet.format === 'json') {
    const file = snippet.target as ClientFile;
    assert.ok(file in CLIENT_FILE_SCHEMAS, `${snippet.client}: a known client file (${snippet.target})`);
    return Object.values(readClientFile(file, snippet.text)).map(launchOf);
  }
  if (snippet.text.startsWith('claude ')) return [readClaudeCodeCommand(snippet.text).launch];
  if (snippet.text.startsWith('npx @modelcontextprotocol/inspector')) {
    const command = readInspectorCommand(snippet.text);
    assert.equal(command.method, 'tools/list');
    if ('launch' in command) return [command.launch];
    const file = all.find((s) => s.target === command.config);
    assert.ok(file, `${snippet.client}: the Bridge view gives the file ${command.config} too`);
    const server = readClientFile('junction-inspector.json', file.text)[command.server];
    assert.ok(server, `${command.config} names the server ${command.server}`);
    return [launchOf(server)];
  }
  return [];
}

describe('client setup snippets connect as their clients would (auth=token)', () => {
  let junction: TestJunction;
  let plugin: RunningScenePlugin;
  const seen = new Map<string, Promise<string[]>>();
  /** Identical launches (the same command in two clients' files) are connected once. */
  const tools = (launch: Launch) => {
    const key = JSON.stringify(launch);
    if (!seen.has(key)) seen.set(key, toolsVia(launch));
    return seen.get(key)!;
  };

  before(async () => {
    junction = await startTestJunction(['auth=token', `token=${TOKEN}`, 'project-routing=multi']);
    plugin = await startScenePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server?project_path_hash=${HASH}&project_name=GameA`, role: 'editor', name: 'GameA', token: TOKEN });
    await eventually(async () => (await junction.control.snapshot()).bridge.projects?.some((p) => p.pin === PIN), 10_000, 'the pinned project');
  });
  after(async () => {
    await plugin?.stop();
    await junction?.stop();
  });

  test('every client and transport is covered, each label once', async () => {
    const { bridge } = await junction.control.snapshot();
    const labels = bridge.snippets.map((s) => s.client);
    assert.equal(new Set(labels).size, labels.length);
    const kinds = (client: string) => new Set(bridge.snippets.filter((s) => s.client.startsWith(client)).flatMap((s) => launchesOf(s, bridge.snippets).map((l) => l.kind)));
    // Claude Desktop's file takes local servers only: it reaches Junction through junction connect.
    assert.deepEqual([...kinds('Claude Desktop')], ['stdio']);
    for (const client of ['Claude Code', 'VS Code', 'Cursor', 'MCP Inspector']) assert.deepEqual([...kinds(client)].sort(), ['http', 'stdio'], client);
  });

  test('unpinned: each snippet reaches the whole catalogue with the token', async () => {
    const { bridge } = await junction.control.snapshot();
    for (const snippet of bridge.snippets) {
      if (snippet.transport === 'http-api') {
        const curl = readCurlCommand(snippet.text);
        const response = await fetch(curl.url, { method: curl.method, headers: curl.headers, body: curl.body });
        assert.equal(response.status, 200, `${snippet.client}: ${await response.text()}`);
        continue;
      }
      const launches = launchesOf(snippet, bridge.snippets);
      assert.ok(launches.length > 0, `${snippet.client} names a server`);
      for (const launch of launches) {
        const names = await tools(launch);
        assert.ok(names.includes('server-status') && names.includes('list-objects'), `${snippet.client} (${launch.kind}): ${names.join(', ')}`);
      }
    }
  });

  test("pinned: each snippet of the project reaches that project's plugin", async () => {
    const project = (await junction.control.snapshot()).bridge.projects?.find((p) => p.pin === PIN);
    assert.ok(project?.snippets?.length, 'the project has its own snippets');
    assert.equal(project.snippet, project.snippets.find((s) => s.client === 'Claude Code: .mcp.json (streamable HTTP)')?.text, 'the project snippet is kept');
    for (const snippet of project.snippets) {
      if (snippet.transport === 'http-api') {
        const curl = readCurlCommand(snippet.text);
        assert.match(curl.url, new RegExp(`/p/${PIN}/api/tools/`));
        assert.equal((await fetch(curl.url, { method: curl.method, headers: curl.headers, body: curl.body })).status, 200, snippet.client);
        continue;
      }
      for (const launch of launchesOf(snippet, project.snippets)) {
        if (launch.kind === 'http') assert.match(launch.url, new RegExp(`/p/${PIN}/mcp$`), snippet.client);
        else assert.ok(launch.args.includes(`project-pin=${PIN}`), `${snippet.client}: ${launch.args.join(' ')}`);
        const names = await tools(launch);
        assert.ok(names.includes('list-objects'), `${snippet.client} (${launch.kind}): ${names.join(', ')}`);
      }
    }
  });
});
