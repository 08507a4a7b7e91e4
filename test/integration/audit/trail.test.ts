import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createPlugin, type McpPlugin } from '../../../plugins/sdk/index.js';
import type { CallDetail, ControlResult, HistoryPage, ReplayResult } from '../../../src-main/contracts/index.js';
import { runAuditCommand } from '../../../src-main/app/cli/audit.js';
import { isJunctionError } from '../../../src-main/contracts/errors.js';
import { CLI_SOURCE_FOR_TESTS } from '../../support/cli.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const PASSWORD = 'hunter2-Pw-7f3a9c';
const SESSION_TOKEN = 'tok-9d8c7b6a5f4e3d';
const CUSTOM = 'zz-CUSTOM-11223344';
const SECRETS = [PASSWORD, SESSION_TOKEN, CUSTOM];

function value<T>(result: ControlResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

function assertNoSecrets(text: string, where: string): void {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} holds ${secret}`);
}

async function postTool(junction: TestJunction, name: string, args: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${junction.baseUrl}/api/tools/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args) });
  return { status: res.status, body: await res.json() };
}

function exportWithCli(stateDir: string, ...flags: string[]): string {
  const run = spawnSync(process.execPath, [...CLI_SOURCE_FOR_TESTS, 'audit', 'export', ...flags, `state-dir=${stateDir}`], { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: stateDir } });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

describe('junction audit export: bad input', () => {
  test('a bad format, a bad date and a missing trail are clear errors with no output', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'junction-audit-none-'));
    try {
      const run = async (...args: string[]) => {
        const out = new PassThrough();
        let text = '';
        out.on('data', (c: Buffer) => (text += c.toString()));
        await writeFile(join(empty, 'none.json'), '{}');
        const error = await runAuditCommand(['export', ...args, `state-dir=${empty}`, `settings=${join(empty, 'none.json')}`], out).then(() => undefined, (e: unknown) => e);
        return { error, text };
      };
      const codeOf = (e: unknown) => (isJunctionError(e) ? e.code : String(e));
      const format = await run('--format', 'xml');
      assert.equal(codeOf(format.error), 'ConfigInvalid');
      assert.match((format.error as Error).message, /--format: expected jsonl or csv/);
      const since = await run('--since', 'yesterday');
      assert.match((since.error as Error).message, /--since: expected an ISO 8601 date/);
      const missing = await run();
      assert.equal(codeOf(missing.error), 'ResourceNotFound');
      assert.match((missing.error as Error).message, /No audit trail at .*audit\.db/);
      assert.equal(format.text + since.text + missing.text, '');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('audit trail on the real stack: redaction everywhere, history across restarts, export, replay', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-audit-'));
  const settings = [`state-dir=${stateDir}`, 'redact=re:zz-CUSTOM-[0-9]+'];
  let junction: TestJunction;
  let plugin: McpPlugin;
  let loginCallId: string;

  before(async () => {
    junction = await startTestJunction(settings);
    plugin = createPlugin({ name: 'accounts', version: '1.0.0', role: 'editor', endpoint: `${junction.baseUrl}/hub/mcp-server` });
    plugin.tool({
      name: 'login',
      description: 'Signs a user in and returns a session.',
      input: z.object({ user: z.string(), password: z.string(), note: z.string() }),
      handler: async ({ user, note }) => ({ user, sessionToken: SESSION_TOKEN, echo: note }),
    });
    await plugin.connect();
    await eventually(async () => (await fetch(`${junction.baseUrl}/api/tools`).then((r) => r.text())).includes('"login"'), 10_000, 'the plugin tool');
  });
  after(async () => {
    await plugin?.disconnect();
    await junction?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  test('secrets in arguments and results never reach the console or the database file', async () => {
    const login = await postTool(junction, 'login', { user: 'ada', password: PASSWORD, note: `see ${CUSTOM}` });
    assert.equal(login.status, 200);
    assert.ok(JSON.stringify(login.body).includes(SESSION_TOKEN), 'the agent itself gets the real result');

    const page = value<HistoryPage>(await junction.control.execute('history', { tool: 'login' }));
    assert.equal(page.available, true);
    assert.equal(page.calls.length, 1);
    loginCallId = page.calls[0]!.callId;
    const detail = value<CallDetail>(await junction.control.execute('callDetail', { callId: loginCallId }));
    assertNoSecrets(JSON.stringify(detail), 'the console call detail');
    assert.equal((detail.arguments as { password: string }).password, '[redacted]');
    assert.equal((detail.arguments as { user: string }).user, 'ada');
    assert.ok(detail.redacted?.includes('/arguments/password'));
    assert.ok(detail.redacted?.some((p) => p.startsWith('/result/')), 'the session token in the result is marked');

    const replay = await junction.control.execute('replay', { callId: loginCallId });
    assert.equal(replay.ok, false);
    assert.equal(!replay.ok && replay.error.code, 'ReplayRefused', 'a call whose arguments were redacted cannot be replayed with stand-ins');
  });

  test('a replay goes through the dispatcher again and is recorded as a new call linked to the original', async () => {
    const status = await postTool(junction, 'server-status', {});
    assert.equal(status.status, 200);
    const original = value<HistoryPage>(await junction.control.execute('history', { tool: 'server-status' })).calls[0]!;
    const replay = value<ReplayResult>(await junction.control.execute('replay', { callId: original.callId }));
    assert.equal(replay.isError, false);
    const after = value<HistoryPage>(await junction.control.execute('history', { tool: 'server-status' }));
    assert.equal(after.calls.length, 2);
    assert.equal(after.calls[0]!.replayOf, original.callId);
    assert.equal(after.calls[0]!.transport, 'console');
    // Time-ordered ids (UUID version 7), so the trail's call-id index grows at its end: the newer call's sorts after.
    for (const call of after.calls) assert.match(call.callId, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(after.calls[0]!.callId > original.callId, 'the replay, made later, has the larger id');
  });

  test('history survives a restart; the file, the WAL and exports hold no secret', async () => {
    await junction.stop();
    const files = readdirSync(join(stateDir, 'audit'));
    assert.ok(files.includes('audit.db'));
    for (const file of files) assertNoSecrets(readFileSync(join(stateDir, 'audit', file)).toString('latin1'), file);

    const jsonl = exportWithCli(stateDir);
    assertNoSecrets(jsonl, 'the JSON lines export');
    const lines = jsonl.trim().split('\n').map((l) => JSON.parse(l) as { type: string; tool?: string; kind?: string });
    assert.deepEqual(lines.filter((l) => l.type === 'call').map((l) => l.tool), ['login', 'server-status', 'server-status']);
    assert.ok(lines.some((l) => l.type === 'event' && l.kind === 'plugin.connected'));
    const inProcess = async (...args: string[]) => {
      const out = new PassThrough();
      let text = '';
      out.on('data', (c: Buffer) => (text += c.toString()));
      await runAuditCommand(['export', ...args, `state-dir=${stateDir}`, `settings=${join(stateDir, 'none.json')}`], out);
      return text;
    };
    await writeFile(join(stateDir, 'none.json'), '{}');
    const csv = await inProcess('--format', 'csv');
    assertNoSecrets(csv, 'the CSV export');
    assert.match(csv.split('\n')[0]!, /^type,at,callId,/);
    assert.equal((await inProcess('--since', '2999-01-01')).trim(), '', '--since filters');

    junction = await startTestJunction(settings);
    const page = value<HistoryPage>(await junction.control.execute('history', {}));
    assert.deepEqual(page.calls.map((c) => c.tool), ['server-status', 'server-status', 'login']);
    const detail = value<CallDetail>(await junction.control.execute('callDetail', { callId: loginCallId }));
    assert.equal(detail.call.tool, 'login', 'a call from before the restart opens from the trail');
    assertNoSecrets(JSON.stringify(detail), 'the restored call detail');
    const errors = value<HistoryPage>(await junction.control.execute('history', { text: 'LOGI' }));
    assert.deepEqual(errors.calls.map((c) => c.callId), [loginCallId], 'search is case-insensitive on the server');
  });
});
