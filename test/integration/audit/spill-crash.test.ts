/**
 * A real Junction (the CLI's `serve`, in a child process) killed with SIGKILL while it writes back the
 * records an earlier run kept in `audit.db-pending.jsonl`; the next, normal start must neither lose nor
 * double any of them: one row per call id, and an export without duplicates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { auditDbPath } from '../../../src-main/audit/index.js';
import type { PreparedRecord } from '../../../src-main/audit/rows.js';
import { saveSpill, spillPath } from '../../../src-main/audit/spill.js';
import { timeOrderedId } from '../../../src-main/shared/time-ordered-id.js';
import { CLI_SOURCE_FOR_TESTS, isolatedEnv } from '../../support/cli.js';
import { eventually, startTestJunction } from '../../support/junction-harness.js';

const SPILLED = 12_000;
/** Recent, so retention keeps them. */
const BASE = Date.now() - 3_600_000;

function spilledCall(i: number): PreparedRecord {
  // About a kilobyte of searchable text each, so writing them back takes long enough to be interrupted.
  const args = JSON.stringify({ n: i, note: `spilled record ${i} `.repeat(40) });
  return {
    type: 'call',
    params: {
      callId: timeOrderedId(BASE + i), startedAt: BASE + i, agent: 'agent', transport: 'http-api', tool: 'echo', target: 'host', status: 'ok', errorCode: null,
      durationMs: 1, requestBytes: args.length, responseBytes: null, arguments: args, result: null, redacted: null, truncated: 0, policy: null, decidedBy: null, replayOf: null,
    },
  };
}

const spilledEvent = (i: number): PreparedRecord => ({ type: 'event', params: { at: BASE + i, kind: 'plugin.connected', workspaceId: null, transactionId: null, data: JSON.stringify({ connectionId: `c${i}` }) } });

/** Rows in the file now, through a connection of the test's own (WAL lets it read while the child writes). */
function rowsIn(path: string): number {
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 1_000 });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM calls').get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

test('a Junction killed while writing back its spill file leaves one row per call id after the next start, and an export without duplicates', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-spill-crash-'));
  try {
    const path = auditDbPath(stateDir);
    mkdirSync(join(stateDir, 'audit'), { recursive: true });
    // Every hundredth record an event, which has no id of its own.
    const records = Array.from({ length: SPILLED }, (_, i) => (i % 100 === 99 ? spilledEvent(i) : spilledCall(i)));
    const calls = records.filter((r) => r.type === 'call').length;
    saveSpill(spillPath(path), records);

    const child = spawn(process.execPath, [...CLI_SOURCE_FOR_TESTS, 'serve', `state-dir=${stateDir}`, 'port=0', 'console=false', 'demo=false', 'log-level=error'], { env: isolatedEnv(), stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    let atKill: number;
    try {
      // Killed once some batches are in the file and others are not.
      atKill = await eventually(() => {
        const n = rowsIn(path);
        return n >= 1_000 && n;
      }, 60_000, 'the write-back to start');
    } finally {
      child.kill('SIGKILL');
    }
    assert.equal(await exited, 'SIGKILL');
    const afterKill = rowsIn(path);
    assert.ok(afterKill < calls, `the kill came before the write-back ended (${atKill} rows when killed, ${afterKill} after, of ${calls})`);
    assert.ok(existsSync(spillPath(path)), 'the spill file stays while some of its records are unwritten');

    const junction = await startTestJunction([`state-dir=${stateDir}`]);
    try {
      await eventually(() => !existsSync(spillPath(path)), 60_000, 'the spill file to be written back and removed');
      const db = new Database(path, { readonly: true, fileMustExist: true });
      try {
        const { rows, ids } = db.prepare('SELECT COUNT(*) AS rows, COUNT(DISTINCT call_id) AS ids FROM calls').get() as { rows: number; ids: number };
        assert.equal(ids, calls, 'every spilled call is in the trail');
        assert.equal(rows, ids, 'no call id is written twice');
        const { events } = db.prepare("SELECT COUNT(*) AS events FROM events WHERE kind = 'plugin.connected' AND data LIKE '{\"connectionId\":\"c%'").get() as { events: number };
        assert.equal(events, SPILLED - calls, 'each spilled event is written once');
      } finally {
        db.close();
      }
      let text = '';
      const out = new Writable({ write: (chunk: Buffer, _encoding, done) => ((text += chunk.toString('utf8')), done()) });
      await junction.audit!.export({ format: 'jsonl' }, out);
      const ids = text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { type: string; callId?: string; call?: { callId: string } })
        .flatMap((line) => (line.type === 'call' ? [line.callId ?? line.call?.callId] : []));
      assert.equal(ids.length, calls, 'the export lists each spilled call');
      assert.equal(new Set(ids).size, ids.length, 'the export has no duplicates');
    } finally {
      await junction.stop();
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
});
