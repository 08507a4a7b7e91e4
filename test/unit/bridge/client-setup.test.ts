import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientSnippets, shellWord } from '../../../src-main/bridge/client-setup.js';
import { CLIENT_FILE_SCHEMAS, launchOf, readClaudeCodeCommand, readClientFile, readInspectorCommand, shellWords, type ClientFile } from '../../support/client-formats.js';

const target = {
  name: 'junction',
  host: '127.0.0.1',
  port: 8080,
  mcpUrl: 'http://127.0.0.1:8080/mcp',
  apiUrl: 'http://127.0.0.1:8080/api/tools',
  cli: { command: '/opt/node 20/bin/node', args: ['--import', "file:///home/o'neil/junction/node_modules/tsx/dist/loader.mjs", "/home/o'neil/junction/src-main/app/cli.ts"] },
};

test('without auth=token no snippet carries a token, and every file still reads in its format', () => {
  for (const snippet of clientSnippets(target)) {
    assert.doesNotMatch(snippet.text, /Authorization|JUNCTION_TOKEN|JUNCTION_AUTH/, snippet.client);
    if (snippet.format === 'json') readClientFile(snippet.target as ClientFile, snippet.text);
  }
});

test('paths with spaces and quotes come back word for word from every command', () => {
  for (const word of ['plain', 'two words', "it's", '$HOME', 'a"b', '']) assert.deepEqual(shellWords(shellWord(word)), [word]);
  const snippets = clientSnippets({ ...target, token: 'tok' });
  const claude = readClaudeCodeCommand(snippets.find((s) => s.client === 'Claude Code: command (stdio)')!.text);
  const desktop = launchOf(Object.values(readClientFile('claude_desktop_config.json', snippets.find((s) => s.client === 'Claude Desktop (stdio)')!.text))[0]!);
  assert.deepEqual(claude.launch, desktop, 'the command and the file name the same launch');
  assert.equal(claude.launch.kind === 'stdio' && claude.launch.command, '/opt/node 20/bin/node');
  const inspector = readInspectorCommand(snippets.find((s) => s.client === 'MCP Inspector: command (streamable HTTP)')!.text);
  assert.deepEqual('launch' in inspector && inspector.launch, { kind: 'http', url: target.mcpUrl, headers: { Authorization: 'Bearer tok' } });
});

test("a client file in another client's format is refused by that format's schema", () => {
  const vscode = JSON.stringify({ servers: { junction: { type: 'http', url: target.mcpUrl } } });
  assert.throws(() => readClientFile('~/.cursor/mcp.json', vscode), /not a valid/);
  assert.throws(() => readClientFile('.vscode/mcp.json', JSON.stringify({ mcpServers: { junction: { command: 'node' } } })), /not a valid/);
  assert.throws(() => readClientFile('.vscode/mcp.json', JSON.stringify({ servers: { junction: { command: 'node' } } })), /not a valid/, 'VS Code requires type');
  assert.throws(() => readClientFile('claude_desktop_config.json', JSON.stringify({ mcpServers: { junction: { type: 'http', url: target.mcpUrl } } })), /not a valid/);
  assert.ok(Object.keys(CLIENT_FILE_SCHEMAS).length >= 5);
});
