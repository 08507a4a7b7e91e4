/**
 * Upgrading an older audit trail off the main thread: a real version 1 file of 100,000 calls (its
 * upgrade takes a second or more here), a real writer thread, a real child process killed mid-upgrade.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runAuditCommand } from '../../../src-main/app/cli/audit.js';
import { PROJECT_ROOT } from '../../../src-main/app/paths.js';
import { AuditStore, AuditTrail, REDACTED, auditDbPath, compileRedaction, type AuditCallInput } from '../../../src-main/audit/index.js';
import { SCHEMA_VERSION } from '../../../src-main/audit/schema.js';
import { spillPath } from '../../../src-main/audit/spill.js';
import { silentLogger, type Logger } from '../../../src-main/shared/log.js';
import { V1_T0, writeV1Trail } from '../../support/audit-v1.js';
import { callJson, readTrail } from '../../support/audit-store.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/audit/', import.meta.url));
const ROWS = 100_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function call(callId: string, startedAt: number): AuditCallInput {
  return {
    call: { callId, agent: 'claude-code', transport: 'mcp-http', tool: 'document-read', target: 'host', status: 'ok', startedAt, durationMs: 1, requestBytes: 10, responseBytes: 10 },
    json: callJson({ path: `src/${callId}.ts` }, { content: [{ type: 'text', text: 'done' }] }),
    policy: null,
    decidedBy: null,
  };
}

function fileState(path: string): { version: number; calls: number; errorIndex: boolean; integrity: string } {
  return readTrail(path, (db) => ({
    version: db.pragma('user_version', { simple: true }) as number,
    calls: (db.prepare('SELECT COUNT(*) AS n FROM calls').get() as { n: number }).n,
    errorIndex: db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'calls_fts_error'").get() !== undefined,
    integrity: db.pragma('quick_check', { simple: true }) as string,
  }));
}

const countCalls = (path: string, callId: string): number =>
  readTrail(path, (db) => (db.prepare('SELECT COUNT(*) AS n FROM calls WHERE call_id = ?').get(callId) as { n: number }).n);

function capture(): { logger: Logger; infos: string[]; warnings: string[] } {
  const infos: string[] = [];
  const warnings: string[] = [];
  return { logger: { ...silentLogger, info: (m: string) => void infos.push(m), warn: (m: string) => void warnings.push(m) }, infos, warnings };
}

describe('audit trail upgrade off the main thread', () => {
  let root: string;
  /** The version 1 file each test copies: written once, since 100,000 calls take a few seconds. */
  let pristine: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'junction-audit-upgrade-'));
    pristine = join(root, 'v1.db');
    writeV1Trail(pristine, ROWS);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A state directory whose audit database is a copy of the version 1 file. */
  const v1StateDir = (name: string): string => {
    const stateDir = join(root, name);
    mkdirSync(join(stateDir, 'audit'), { recursive: true });
    copyFileSync(pristine, auditDbPath(stateDir));
    return stateDir;
  };

  test('the trail opens without waiting, records calls during the upgrade, says why history is unavailable, and shows them after it', async () => {
    const stateDir = v1StateDir('serve');
    const { logger, infos } = capture();
    const trail = new AuditTrail({ stateDir, rules: compileRedaction([]), logger, retentionDays: 36_500, maxMb: 1024 });
    try {
      // The upgrade's answer can only arrive through the event loop: still upgrading here means open() did not wait for it.
      assert.equal(trail.store.status().state, 'upgrading', 'the constructor returned before the upgrade ended');
      const now = Date.now();
      for (let i = 1; i <= 3; i++) trail.store.recordCall(call(`during-${i}`, now + i));
      assert.equal(trail.store.status().queued, 3, 'calls ending during the upgrade are held');

      let page = await trail.history.query({});
      assert.equal(page.available, false);
      assert.match(page.reason ?? '', /audit trail is being upgraded/);
      assert.deepEqual(page.calls, []);
      assert.equal(await trail.history.detail('v1-5'), undefined, 'one call is not looked up during the upgrade either');
      const transactions = await trail.history.transactions(10);
      assert.deepEqual({ available: transactions.available, upgrading: transactions.upgrade !== undefined }, { available: false, upgrading: true }, 'ended transactions say why they are missing too');
      assert.match(transactions.reason ?? '', /audit trail is being upgraded/);

      // Once the writer thread has counted the calls, the console is told how many are being indexed.
      while (trail.store.status().state === 'upgrading' && trail.store.status().upgrade?.calls === undefined) await sleep(10);
      page = await trail.history.query({});
      assert.equal(page.available, false, 'still upgrading: 100,000 calls take far longer to index than to count');
      assert.equal(page.upgrade?.calls, ROWS);
      assert.match(page.reason ?? '', new RegExp(`from schema 1 to ${SCHEMA_VERSION}: indexing 100,000 recorded calls for search`));
      assert.ok(infos.some((m) => m.includes(`upgrading ${auditDbPath(stateDir)} from schema 1 to ${SCHEMA_VERSION}, indexing ${ROWS} recorded calls`)), infos.join('\n'));

      // And how far it is, range by range.
      while (trail.store.status().state === 'upgrading' && trail.store.status().upgrade?.done === undefined) await sleep(10);
      page = await trail.history.query({});
      assert.ok(page.upgrade?.done !== undefined && page.upgrade.done > 0 && page.upgrade.done <= 1, `progress ${page.upgrade?.done}`);
      assert.match(page.reason ?? '', / \d+ % done\)/);

      // The export reads the file as it is, so it works during the upgrade too. Its window ends at the old
      // calls: had the upgrade ended meanwhile, the calls held during it would be in the file as well.
      const exported = new PassThrough();
      let text = '';
      exported.on('data', (chunk: Buffer) => (text += chunk.toString()));
      await trail.export({ format: 'jsonl', since: V1_T0 + ROWS - 2, until: V1_T0 + ROWS }, exported);
      assert.deepEqual(text.trim().split('\n').map((line) => (JSON.parse(line) as { callId: string }).callId), [`v1-${ROWS - 2}`, `v1-${ROWS - 1}`]);

      await trail.store.upgraded();
      assert.ok(infos.some((m) => new RegExp(`upgraded .* from schema 1 to ${SCHEMA_VERSION}, indexing ${ROWS} recorded calls for search in \\d+ ms`).test(m)), infos.join('\n'));
      page = await trail.history.query({ limit: 4 });
      assert.equal(page.available, true);
      assert.equal(page.upgrade, undefined);
      assert.deepEqual(page.calls.map((c) => c.callId), ['during-3', 'during-2', 'during-1', `v1-${ROWS - 1}`], 'the calls held during the upgrade are written after it, none lost');
      const failed = await trail.history.query({ text: 'legacyproject', status: 'error', limit: 2 });
      assert.deepEqual(failed.calls.map((c) => c.callId), [`v1-${ROWS - 20}`, `v1-${ROWS - 40}`], 'the old calls are in the new indexes');
      // The backfill was one transaction as large as the index it built; its log is given back, not kept.
      const walBytes = statSync(`${auditDbPath(stateDir)}-wal`).size;
      assert.ok(walBytes < 1024 * 1024, `the write-ahead log holds ${walBytes} bytes after the upgrade`);
    } finally {
      await trail.close();
    }
    assert.deepEqual(fileState(auditDbPath(stateDir)), { version: SCHEMA_VERSION, calls: ROWS + 3, errorIndex: true, integrity: 'ok' });

    const again = new AuditStore({ path: auditDbPath(stateDir), rules: compileRedaction([]), logger, retentionDays: 36_500, maxBytes: 1024 ** 3 });
    again.open();
    assert.equal(again.status().state, 'open', 'an upgraded file opens at once, with no upgrade');
    await again.close();
  });

  test('a Junction killed mid-upgrade leaves the file wholly at the old version, and the next start upgrades it', async () => {
    const stateDir = v1StateDir('crash');
    const path = auditDbPath(stateDir);
    const child = spawn(process.execPath, ['--import', 'tsx', join(FIXTURES, 'upgrade-child.ts'), path], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    let said = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes('\n')) resolve();
      });
      child.on('error', reject);
    });
    assert.equal(said, 'upgrading\n');
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');

    assert.deepEqual(fileState(path), { version: 1, calls: ROWS, errorIndex: false, integrity: 'ok' }, 'nothing of the upgrade is in the file');
    // With Junction stopped, the export reads the version 1 file as it is.
    writeFileSync(join(stateDir, 'none.json'), '{}');
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const exported = await runAuditCommand(['export', '--format', 'csv', '--since', new Date(V1_T0 + ROWS - 1).toISOString(), `state-dir=${stateDir}`, `settings=${join(stateDir, 'none.json')}`], out);
    assert.equal(exported, 1);
    assert.match(text.split('\n')[1] ?? '', new RegExp(`^call,[^,]+,v1-${ROWS - 1},`));

    const { logger, infos } = capture();
    const store = new AuditStore({ path, rules: compileRedaction([]), logger, retentionDays: 36_500, maxBytes: 1024 ** 3 });
    store.open();
    assert.equal(store.status().state, 'upgrading', 'the next start upgrades again');
    await store.upgraded();
    assert.equal(store.status().state, 'open');
    assert.ok(infos.some((m) => /upgraded .* in \d+ ms/.test(m)), infos.join('\n'));
    await store.close();
    assert.deepEqual(fileState(path), { version: SCHEMA_VERSION, calls: ROWS, errorIndex: true, integrity: 'ok' });
  });

  test('past the bound of the queue during the upgrade the oldest records are dropped, counted and told when it ends', async () => {
    const stateDir = v1StateDir('bound');
    const { logger, warnings } = capture();
    const store = new AuditStore({ path: auditDbPath(stateDir), rules: compileRedaction([]), logger, retentionDays: 36_500, maxBytes: 1024 ** 3, maxQueue: 2 });
    try {
      store.open();
      const now = Date.now();
      for (let i = 1; i <= 5; i++) store.recordCall(call(`during-${i}`, now + i));
      assert.equal(store.status().state, 'upgrading');
      assert.deepEqual({ queued: store.status().queued, dropped: store.status().dropped }, { queued: 2, dropped: 3 });
      await store.upgraded();
      assert.ok(warnings.some((w) => /3 records were dropped during the upgrade .*: more calls ended than the 2 it holds/.test(w)), warnings.join('\n'));
      assert.deepEqual((await store.queryCalls({ limit: 3 })).items.map((item) => item.call.callId), ['during-5', 'during-4', `v1-${ROWS - 1}`], 'the newest records are kept');
    } finally {
      await store.close();
    }
  });

  test('closing during the upgrade stops it: the file stays at the old version, and what was queued is kept, redacted, for the next start', async () => {
    const stateDir = v1StateDir('close');
    const path = auditDbPath(stateDir);
    const secret = 'sk-live-spill-9c1f5e';
    const during: AuditCallInput = { ...call('during-close', Date.now()), json: callJson({ path: 'src/a.ts', apiKey: secret }, { content: [{ type: 'text', text: 'done' }] }) };
    const first = capture();
    const store = new AuditStore({ path, rules: compileRedaction([]), logger: first.logger, retentionDays: 36_500, maxBytes: 1024 ** 3 });
    store.open();
    store.recordCall(during);
    assert.equal(store.status().state, 'upgrading');
    await store.close();
    assert.ok(first.warnings.some((w) => /closing stopped the upgrade, so it was rolled back .* stays wholly at/.test(w)), first.warnings.join('\n'));
    assert.ok(
      first.warnings.some((w) => /1 records could not be written before closing \(the upgrade .* was still running at close\); they are kept in .*audit\.db-pending\.jsonl/.test(w)),
      first.warnings.join('\n'),
    );
    assert.equal(store.status().state, 'unavailable');
    const { version, errorIndex } = fileState(path);
    assert.deepEqual({ version, errorIndex }, { version: 1, errorIndex: false });
    const spill = readFileSync(spillPath(path));
    assert.ok(spill.includes('during-close'), 'the queued call is in the spill file');
    assert.ok(!spill.includes(secret), 'and its secret is not: the spill holds records in stored (redacted) form');

    const second = capture();
    const reopened = new AuditStore({ path, rules: compileRedaction([]), logger: second.logger, retentionDays: 36_500, maxBytes: 1024 ** 3 });
    try {
      reopened.open();
      await reopened.upgraded();
      const kept = (await reopened.findCall('during-close'));
      assert.ok(kept, 'the next start writes the kept call once its upgrade ends');
      assert.equal((kept.arguments as { apiKey: unknown }).apiKey, REDACTED);
      assert.ok(second.infos.some((m) => /writing 1 records an earlier run kept in/.test(m)), second.infos.join('\n'));
      assert.equal(existsSync(spillPath(path)), false, 'the spill file goes once its records are written');
    } finally {
      await reopened.close();
    }
    assert.equal(countCalls(path, 'during-close'), 1, 'written once');
  });

  test('a new file and a current one open on the spot, with no upgrade', async () => {
    const dir = join(root, 'fresh');
    const path = join(dir, 'audit.db');
    const { logger, infos } = capture();
    for (let run = 0; run < 2; run++) {
      const store = new AuditStore({ path, rules: compileRedaction([]), logger, retentionDays: 36_500, maxBytes: 1024 ** 3 });
      store.open();
      assert.equal(store.status().state, 'open', run === 0 ? 'a new file' : 'a current file');
      assert.equal(store.writerRunning, false, 'the writer thread still starts with the first record');
      await store.close();
    }
    assert.deepEqual(infos, []);
  });
});
