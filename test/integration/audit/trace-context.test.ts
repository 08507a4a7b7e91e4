/**
 * The agent's trace context (`traceparent`) kept in the trail: a real store on a real file, its history,
 * both export formats, the spill file across a locked database, and an upgrade of a version 4 trail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { AuditStore, AuditTrail, auditDbPath, compileRedaction, exportAudit, type AuditCallInput, type ExportFormat } from '../../../src-main/audit/index.js';
import { PROJECT_ROOT } from '../../../src-main/app/paths.js';
import { SCHEMA_VERSION, searchIndexStatements, timeMapStatement } from '../../../src-main/audit/schema.js';
import { spillPath } from '../../../src-main/audit/spill.js';
import { silentLogger } from '../../../src-main/shared/log.js';
import { callJson, readTrail, withUpgradedTrail } from '../../support/audit-store.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/audit/', import.meta.url));
const TRACE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const T0 = Date.now() - 60_000;

function call(callId: string, at: number, traceparent?: string): AuditCallInput {
  return {
    call: { callId, agent: 'claude-code', transport: 'http-api', tool: 'document-read', target: 'host', status: 'ok', startedAt: at, durationMs: 2, requestBytes: 10, responseBytes: 10, ...(traceparent ? { traceparent } : {}) },
    json: callJson({ path: `src/${callId}.ts` }, { content: [{ type: 'text', text: 'done' }] }),
    policy: null,
    decidedBy: null,
  };
}

async function exported(path: string, format: ExportFormat): Promise<string> {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  await exportAudit({ path, format }, sink);
  return text;
}

/** Each call's traceparent as the export shows it, by call id: JSON lines' field, and the CSV's column under its header. */
async function exportedTraces(path: string): Promise<{ jsonl: Record<string, unknown>; csv: Record<string, string> }> {
  const jsonl = Object.fromEntries(
    (await exported(path, 'jsonl'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .map((line) => [line.callId, line.traceparent ?? null]),
  );
  const [header, ...rows] = (await exported(path, 'csv')).split('\n').filter(Boolean);
  const columns = header!.split(',');
  const at = (name: string) => {
    const index = columns.indexOf(name);
    assert.notEqual(index, -1, `the CSV has a ${name} column`);
    return index;
  };
  // The test's cells hold no commas or quotes before the traceparent column, so a split finds it.
  const csv = Object.fromEntries(rows.map((row) => row.split(',')).map((cells) => [cells[at('callId')]!, cells[at('traceparent')]!]));
  return { jsonl, csv };
}

test('a call\'s traceparent is kept: history page, call detail and both export formats show it; a call without one shows none', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-audit-trace-'));
  const trail = new AuditTrail({ stateDir, rules: compileRedaction([]), logger: silentLogger, retentionDays: 36_500, maxMb: 1024 });
  try {
    trail.observer.finished(call('traced', T0, TRACE).call, { content: [] }, call('traced', T0).json);
    trail.observer.finished(call('untraced', T0 + 1).call, { content: [] }, call('untraced', T0 + 1).json);
    const page = await trail.history.query({});
    assert.deepEqual(
      page.calls.map((c) => [c.callId, c.traceparent]),
      [['untraced', undefined], ['traced', TRACE]],
    );
    assert.ok(!('traceparent' in page.calls[0]!), 'a call without a trace context has no field, not a null one');
    assert.equal((await trail.history.detail('traced'))?.call.traceparent, TRACE);
    const path = auditDbPath(stateDir);
    trail.store.flush();
    assert.deepEqual(await exportedTraces(path), { jsonl: { traced: TRACE, untraced: null }, csv: { traced: TRACE, untraced: '' } });
  } finally {
    await trail.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
});

test('a spilled call keeps its traceparent: in the spill file, in an export made meanwhile, and once written back', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-audit-trace-spill-'));
  const path = join(stateDir, 'audit', 'audit.db');
  mkdirSync(join(stateDir, 'audit'), { recursive: true });
  // Another process holds the database locked, so closing keeps the call in the spill file.
  const holder = spawn(process.execPath, [join(FIXTURES, 'lock-holder.mjs'), path], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
    });
    const options = { path, rules: compileRedaction([]), logger: silentLogger, retentionDays: 36_500, maxBytes: 1024 ** 3, retryMs: 60_000 };
    const locked = new AuditStore(options);
    locked.open();
    locked.recordCall(call('spilled', T0, TRACE));
    await locked.close();
    assert.match(readFileSync(spillPath(path), 'utf8'), new RegExp(`"traceparent":"${TRACE}"`));
    holder.stdin.end();
    await new Promise((resolve) => holder.once('exit', resolve));
    assert.deepEqual(await exportedTraces(path), { jsonl: { spilled: TRACE }, csv: { spilled: TRACE } }, 'the export merges the spilled call with its trace context');
    const reopened = new AuditStore(options);
    try {
      reopened.open();
      assert.deepEqual(
        (await reopened.queryCalls({ limit: 10 })).items.map((item) => [item.call.callId, item.call.traceparent]),
        [['spilled', TRACE]],
      );
      assert.equal(existsSync(spillPath(path)), false, 'written back');
    } finally {
      await reopened.close();
    }
  } finally {
    holder.kill();
    rmSync(stateDir, { recursive: true, force: true });
  }
});

test('a version 4 trail is upgraded: its calls have no traceparent (null in the file), calls recorded after it do', async () => {
  const asVersion4Wrote = (v4: Database.Database) => {
    const insert = v4.prepare("INSERT INTO calls (call_id, started_at, agent, transport, tool, target, status, request_bytes, arguments) VALUES (?, ?, 'cursor', 'http-api', 'document-read', 'host', 'ok', 10, '{}')");
    v4.transaction(() => {
      insert.run('old-1', T0);
      insert.run('old-2', T0 + 1);
      for (const sql of [...searchIndexStatements('1'), timeMapStatement('1')]) v4.exec(sql);
    })();
  };
  await withUpgradedTrail('junction-audit-v4-', 4, asVersion4Wrote, async (store, path, infos) => {
    assert.match(infos.join('\n'), new RegExp(`upgraded .* from schema 4 to ${SCHEMA_VERSION}`));
    store.recordCall(call('new-1', T0 + 2, TRACE));
    assert.deepEqual(
      (await store.queryCalls({ limit: 10 })).items.map((item) => [item.call.callId, item.call.traceparent]),
      [['new-1', TRACE], ['old-2', undefined], ['old-1', undefined]],
    );
    readTrail(path, (db) => {
      assert.deepEqual(db.prepare('SELECT call_id, traceparent FROM calls ORDER BY seq').all(), [
        { call_id: 'old-1', traceparent: null },
        { call_id: 'old-2', traceparent: null },
        { call_id: 'new-1', traceparent: TRACE },
      ]);
    });
  });
});
