import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestJunction, type TestJunction } from '../support/junction-harness.js';

const DEMO_WORKSPACE = join(import.meta.dirname, '../../demo/workspace');

interface ApiAnswer {
  status: number;
  body: { error?: { code: string; message: string }; structuredContent?: Record<string, unknown> } & Record<string, unknown>;
}

async function api(junction: TestJunction, tool: string, body: string | Record<string, unknown>): Promise<ApiAnswer> {
  const response = await fetch(`${junction.baseUrl}/api/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ApiAnswer['body'] };
}

function ok(answer: ApiAnswer): Record<string, unknown> {
  assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
  return answer.body.structuredContent as Record<string, unknown>;
}

function refusedWith(answer: ApiAnswer, status: number, code: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body).slice(0, 300));
  assert.equal(answer.body.error?.code, code, answer.body.error?.message);
}

async function snapshot(junction: TestJunction): Promise<Record<string, unknown>> {
  const status = ok(await api(junction, 'workspace-status', {}));
  return (status.items as Array<{ snapshot: Record<string, unknown> }>)[0]!.snapshot;
}

/** A raw MCP session over streamable HTTP, so malformed requests reach the server as sent. */
async function mcpSession(junction: TestJunction) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(`${junction.baseUrl}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } } }),
  });
  await init.text();
  const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-06-18' };
  await (await fetch(`${junction.baseUrl}/mcp`, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return async (body: string): Promise<{ status: number; message: { error?: { code: number; message: string; data?: { code: string } } } }> => {
    const response = await fetch(`${junction.baseUrl}/mcp`, { method: 'POST', headers: session, body });
    const text = await response.text();
    const json = text.startsWith('event:') ? text.slice(text.indexOf('data: ') + 6).trim() : text;
    return { status: response.status, message: JSON.parse(json) as never };
  };
}

const deeplyNested = (levels: number) => `{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`;

describe('hostile input is an argument error, never an internal one', () => {
  let junction: TestJunction;
  let root: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'junction-input-attack-'));
    cpSync(DEMO_WORKSPACE, root, { recursive: true });
    writeFileSync(join(root, 'notes.txt'), 'not a directory\n');
    junction = await startTestJunction([`workspace=${root}`, 'mode=autonomous-trusted']);
  });
  after(async () => {
    await junction.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('100,000 levels of nested JSON: 400 InvalidArguments on /api, a JSON-RPC invalid request on /mcp', async () => {
    refusedWith(await api(junction, 'server-status', deeplyNested(100_000)), 400, 'InvalidArguments');
    const send = await mcpSession(junction);
    const deep = await send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"server-status","arguments":${deeplyNested(100_000)}}}`);
    assert.equal(deep.status, 400);
    assert.equal(deep.message.error?.code, -32600);
    assert.equal(deep.message.error?.data?.code, 'InvalidArguments');
    ok(await api(junction, 'server-status', deeplyNested(20)));
  });

  test('a non-string tool name or non-object arguments on /mcp are -32602 InvalidParams, not -32603 InternalError', async () => {
    const send = await mcpSession(junction);
    for (const name of [123, null, ['server-status'], { name: 'server-status' }]) {
      const answer = await send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: {} } }));
      assert.equal(answer.message.error?.code, -32602, JSON.stringify(answer.message));
      assert.match(answer.message.error?.message ?? '', /name/);
    }
    for (const args of ['{}', 5, [1]]) {
      const answer = await send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'server-status', arguments: args } }));
      assert.equal(answer.message.error?.code, -32602, JSON.stringify(answer.message));
    }
  });

  test('a path too long or running through a file is InvalidArguments at read and at stage time', async () => {
    refusedWith(await api(junction, 'document-read', { path: `src/${'x'.repeat(5000)}.ts` }), 400, 'InvalidArguments');
    const started = ok(await api(junction, 'transaction-start', { expectedSnapshot: await snapshot(junction) }));
    const expectedSnapshot = started.snapshot;
    const stage = (path: string) => api(junction, 'stage-edits', { expectedSnapshot, summary: 'attack', changes: [{ kind: 'create', path, content: 'export {};\n' }] });
    refusedWith(await stage(`src/${'y'.repeat(300)}.ts`), 400, 'InvalidArguments');
    refusedWith(await stage(`${'d/'.repeat(600)}deep.ts`), 400, 'InvalidArguments');
    refusedWith(await stage('notes.txt/inside.ts'), 400, 'InvalidArguments');
    ok(await api(junction, 'transaction-rollback', { expectedSnapshot }));
  });
});

describe('which paths a transaction may touch', () => {
  let junction: TestJunction;
  let root: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'junction-path-attack-'));
    cpSync(DEMO_WORKSPACE, root, { recursive: true });
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    junction = await startTestJunction([`workspace=${root}`, 'mode=autonomous-trusted']);
  });
  after(async () => {
    await junction.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('.git (hooks included), ignored folders and non-source files are refused with PathNotAllowed at stage time; nothing is written and no agent goes stale', async () => {
    const before = await snapshot(junction);
    const hooksBefore = readdirSync(join(root, '.git', 'hooks'));
    const started = ok(await api(junction, 'transaction-start', { expectedSnapshot: before }));
    const expectedSnapshot = started.snapshot;
    const forbidden: Array<Record<string, unknown>> = [
      { kind: 'create', path: '.git/hooks/pre-commit', content: '#!/bin/sh\necho owned\n' },
      { kind: 'create', path: '.git/hooks/post-checkout.js', content: 'export {};\n' },
      { kind: 'create', path: 'src/.hidden/x.ts', content: 'export {};\n' },
      { kind: 'create', path: 'node_modules/evil/index.js', content: 'export {};\n' },
      { kind: 'create', path: 'dist/out.js', content: 'export {};\n' },
      { kind: 'create', path: 'README.md', content: '# hi\n' },
      { kind: 'rename', path: 'src/main.ts', newPath: '.git/main.ts' },
    ];
    for (const change of forbidden) {
      const answer = await api(junction, 'stage-edits', { expectedSnapshot, summary: 'attack', changes: [change] });
      refusedWith(answer, 400, 'PathNotAllowed');
    }
    assert.deepEqual(readdirSync(join(root, '.git', 'hooks')), hooksBefore, 'nothing was written into .git');
    const afterRefusals = await snapshot(junction);
    assert.equal(afterRefusals.workspaceEpoch, before.workspaceEpoch, 'the epoch did not move, so no agent was staled');
    const allowed = ok(await api(junction, 'stage-edits', { expectedSnapshot, summary: 'fine', changes: [{ kind: 'create', path: 'src/fine.ts', content: 'export const fine = 1;\n' }] }));
    ok(await api(junction, 'transaction-commit', { expectedSnapshot: allowed.snapshot }));
    assert.ok(existsSync(join(root, 'src', 'fine.ts')));
    for (const path of ['node_modules', 'dist', 'README.md', join('src', '.hidden')]) assert.equal(existsSync(join(root, path)), false, `${path} was not created`);
  });
});
