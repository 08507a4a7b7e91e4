import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Database from 'better-sqlite3';
import { AuditStore, compileRedaction, exportAudit } from '../../../src-main/audit/index.js';
import type { HistoryPage } from '../../../src-main/contracts/index.js';
import { eventually, startTestJunction } from '../../support/junction-harness.js';
import { callJson } from '../../support/audit-store.js';
import { PROJECT_ROOT } from '../../../src-main/app/paths.js';
import { silentLogger } from '../../../src-main/shared/log.js';
import { spillPath } from '../../../src-main/audit/spill.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/audit/', import.meta.url));

/** A full collection on demand, so heap samples measure what is live, not when the collector last ran. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function call(i: number, blob = '') {
  return {
    call: { callId: `call-${i}`, agent: `agent-${i % 7}`, transport: 'http-api' as const, tool: `tool-${i % 13}`, target: 'host', status: (i % 10 === 0 ? 'error' : 'ok') as 'ok' | 'error', startedAt: 1_700_000_000_000 + i, durationMs: 3, requestBytes: 100, responseBytes: 200 },
    json: callJson({ index: i, blob }, { content: [{ type: 'text', text: `result ${i}` }] }),
    policy: null,
    decidedBy: null,
  };
}

/** Holds the database at `dbPath` locked from another process until the holder's stdin ends. */
async function holdLock(dbPath: string): Promise<ChildProcessByStdio<Writable, Readable, null>> {
  const holder = spawn(process.execPath, [join(FIXTURES, 'lock-holder.mjs'), dbPath], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    holder.stdout.once('data', () => resolve());
    holder.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
  return holder;
}

async function release(holder: ChildProcessByStdio<Writable, Readable, null>): Promise<void> {
  holder.stdin.end();
  await new Promise((resolve) => holder.once('exit', resolve));
}

/** A new state directory whose audit database a child process holds locked until its stdin ends. */
async function lockedStateDir(prefix: string): Promise<{ stateDir: string; dbPath: string; holder: ChildProcessByStdio<Writable, Readable, null> }> {
  const stateDir = mkdtempSync(join(tmpdir(), prefix));
  const dbPath = join(stateDir, 'audit', 'audit.db');
  mkdirSync(join(stateDir, 'audit'), { recursive: true });
  return { stateDir, dbPath, holder: await holdLock(dbPath) };
}

/** The export as JSON lines, parsed, and what it warned about. */
async function exported(dbPath: string, window: { since?: number; until?: number } = {}): Promise<{ lines: Array<Record<string, unknown>>; warnings: string[] }> {
  let text = '';
  const warnings: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const count = await exportAudit({ path: dbPath, format: 'jsonl', warn: (m) => void warnings.push(m), ...window }, sink);
  const lines = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(count, lines.length, 'the count is the number of lines written');
  return { lines, warnings };
}

describe('audit store under bad conditions', () => {
  test('a database locked by another process: calls still succeed, the operator is told, and the trail catches up once released', async () => {
    const { stateDir, holder } = await lockedStateDir('junction-audit-lock-');
    const warnings: string[] = [];
    const junction = await startTestJunction([`state-dir=${stateDir}`]).catch((e: unknown) => {
      holder.kill();
      throw e;
    });
    try {
      // The harness logs nothing; the store's own status carries what the warning says.
      const res = await fetch(`${junction.baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(res.status, 200, 'the call succeeds although the trail cannot be written');
      junction.audit!.store.flush();
      const status = junction.audit!.store.status();
      assert.equal(status.state, 'unavailable');
      assert.match(status.reason ?? '', /locked by another process/);
      assert.equal(status.queued, 1, 'the record waits, nothing is half-written');
      const page = (await junction.control.execute('history', {})) as { ok: true; value: HistoryPage };
      assert.equal(page.value.available, false);
      warnings.push(page.value.reason ?? '');

      holder.stdin.end();
      await new Promise((resolve) => holder.once('exit', resolve));
      const recorded = await eventually(async () => {
        const r = (await junction.control.execute('history', {})) as { ok: true; value: HistoryPage };
        return r.value.calls.length === 1 ? r.value : undefined;
      }, 20_000, 'the queued call written after the lock was released');
      assert.equal(recorded.calls[0]!.tool, 'server-status');
      assert.equal(junction.audit!.store.status().dropped, 0);
      assert.match(warnings[0]!, /locked/);
    } finally {
      holder.kill();
      await junction.stop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  test('closing while the database is locked keeps the unwritten records in a spill file, written by the next start; damaged lines are skipped and told', async () => {
    const { stateDir, dbPath, holder } = await lockedStateDir('junction-audit-spill-');
    const warnings: string[] = [];
    const infos: string[] = [];
    const logger = { ...silentLogger, warn: (m: string) => void warnings.push(m), info: (m: string) => void infos.push(m) };
    const options = { path: dbPath, rules: compileRedaction([]), logger, retentionDays: 36_500, maxBytes: 1024 ** 3, retryMs: 60_000 };
    try {
      const locked = new AuditStore(options);
      locked.open();
      for (let i = 1; i <= 3; i++) locked.recordCall(call(i));
      locked.flush();
      assert.equal(locked.status().state, 'unavailable');
      await locked.close();
      assert.ok(warnings.some((w) => /3 records could not be written before closing \(.*locked.*\); they are kept in .*audit\.db-pending\.jsonl/.test(w)), warnings.join('\n'));
      assert.equal(readFileSync(spillPath(dbPath), 'utf8').trim().split('\n').length, 3);
      appendFileSync(spillPath(dbPath), '{"type":"call","params":{"callId":"half"}}\nnot json\n');

      await release(holder);
      // The database file the lock holder made was never migrated: the export holds the spilled records alone.
      const pendingOnly = await exported(dbPath);
      assert.deepEqual(pendingOnly.lines.map((line) => line.callId), ['call-1', 'call-2', 'call-3']);
      assert.deepEqual(pendingOnly.warnings, [`2 damaged lines of ${spillPath(dbPath)} were skipped`]);
      warnings.length = 0;
      const reopened = new AuditStore(options);
      try {
        reopened.open();
        assert.deepEqual((await reopened.queryCalls({ limit: 10 })).items.map((item) => item.call.callId), ['call-3', 'call-2', 'call-1'], 'the kept records are written, in order');
        assert.ok(warnings.some((w) => /2 damaged lines of .*audit\.db-pending\.jsonl were skipped/.test(w)), warnings.join('\n'));
        assert.ok(infos.some((m) => /writing 3 records an earlier run kept in/.test(m)), infos.join('\n'));
        assert.equal(existsSync(spillPath(dbPath)), false, 'the spill file goes once its records are written');
      } finally {
        await reopened.close();
      }
    } finally {
      holder.kill();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  test('an export made while Junction is stopped includes the records still in the spill file, in time order, each once', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'junction-audit-export-spill-'));
    const dbPath = join(stateDir, 'audit', 'audit.db');
    const options = { path: dbPath, rules: compileRedaction([]), logger: silentLogger, retentionDays: 36_500, maxBytes: 1024 ** 3, retryMs: 60_000 };
    const at = (i: number) => 1_700_000_000_000 + i;
    /** One run of a Junction: records these calls and one event at `at(3)`, then closes. */
    const run = async (calls: number[], kind: 'plugin.connected' | 'plugin.disconnected', name: string) => {
      const store = new AuditStore(options);
      store.open();
      for (const i of calls) store.recordCall(call(i));
      store.recordEvent({ kind, at: at(3), data: { name } });
      await store.close();
    };
    let holder: ChildProcessByStdio<Writable, Readable, null> | undefined;
    try {
      await run([2, 4], 'plugin.connected', 'written');
      holder = await holdLock(dbPath);
      // Recorded after the written calls, yet earlier or later in time: the export orders by time.
      await run([1, 5], 'plugin.disconnected', 'spilled');
      await release(holder);
      holder = undefined;
      const spilled = readFileSync(spillPath(dbPath), 'utf8');
      assert.equal(spilled.trim().split('\n').length, 3, 'three records wait in the spill file');

      const all = await exported(dbPath);
      assert.deepEqual(
        all.lines.map((line) => line.callId ?? (line.data as { name: string }).name),
        ['call-1', 'call-2', 'written', 'spilled', 'call-4', 'call-5'],
        'calls and events, written and spilled, oldest first; on a tie the database first',
      );
      assert.deepEqual(all.warnings, []);
      const window = await exported(dbPath, { since: at(2), until: at(5) });
      assert.deepEqual(window.lines.map((line) => line.callId ?? (line.data as { name: string }).name), ['call-2', 'written', 'spilled', 'call-4'], 'the window applies to spilled records too');

      // The next start writes the spilled records and then removes the file; between the two, each is exported once.
      const third = new AuditStore(options);
      third.open();
      third.flush();
      await third.close();
      assert.equal(existsSync(spillPath(dbPath)), false);
      writeFileSync(spillPath(dbPath), `${spilled}not json\n`);
      const again = await exported(dbPath);
      assert.deepEqual(again.lines, all.lines, 'records in the database and the spill file are exported once');
      assert.deepEqual(again.warnings, [`1 damaged lines of ${spillPath(dbPath)} were skipped`]);
    } finally {
      if (holder) await release(holder);
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  test('a full disk: a clear warning, no exception to the caller, whole batches only, an intact file', async (t) => {
    const probe = spawnSync('unshare', ['-rm', 'true']);
    if (probe.status !== 0) {
      t.skip('needs `unshare -rm` to mount a tiny private tmpfs (unavailable on this machine)');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'junction-audit-full-'));
    try {
      const child = join(FIXTURES, 'full-disk-child.ts');
      const run = spawnSync('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=512k tmpfs "$1" && exec "$2" --import tsx "$3" "$1"`, 'sh', dir, process.execPath, child], { cwd: PROJECT_ROOT, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      const report = JSON.parse(run.stdout) as { status: { reason?: string; queued: number }; flushed: number; threw: number; rows: number; integrity: string; warnings: string[] };
      assert.equal(report.threw, 0, 'recording never throws');
      assert.match(report.status.reason ?? '', /disk holding the audit database .* is full/);
      assert.ok(report.warnings.some((w) => /is full/.test(w)));
      assert.ok(report.flushed > 0, 'batches before the disk filled were written');
      assert.equal(report.rows, report.flushed, 'the file holds exactly the whole batches that committed');
      assert.ok(report.status.queued > 0, 'the failed batch is kept for a retry, not partly written');
      assert.equal(report.integrity, 'ok');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('calls queued while the database is unavailable keep only their redacted previews, never the whole arguments and result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junction-audit-queue-'));
    // A database path under a regular file can never open, so every record waits in the queue.
    writeFileSync(join(dir, 'file'), '');
    const store = new AuditStore({ path: join(dir, 'file', 'audit.db'), rules: compileRedaction([]), logger: silentLogger, retentionDays: 30, maxBytes: 1024 * 1024 * 1024, retryMs: 60_000 });
    const gc = collector();
    try {
      store.open();
      gc();
      const before = process.memoryUsage().heapUsed;
      // In a function of its own, so no suspended frame of this test keeps the last argument alive.
      const recordLarge = (i: number) => {
        const big = `${i}${Buffer.alloc(8 * 1024 * 1024, 'x').toString('latin1')}`;
        store.recordCall({ ...call(i), json: callJson({ index: i, blob: big }, { content: [{ type: 'text', text: big.toUpperCase() }] }) });
      };
      for (let i = 0; i < 5; i++) recordLarge(i);
      await new Promise((resolve) => setTimeout(resolve, 150));
      gc();
      gc();
      const grownMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
      assert.equal(store.status().state, 'unavailable');
      assert.equal(store.status().queued, 5);
      assert.ok(grownMb < 2, `five queued calls with 8 MB arguments and results hold ${grownMb.toFixed(1)} MB`);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('export of 100,000 recorded calls streams: the heap stays far below the size of the output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junction-audit-export-'));
    try {
      const path = join(dir, 'audit.db');
      const store = new AuditStore({ path, rules: compileRedaction([]), logger: silentLogger, retentionDays: 36_500, maxBytes: 4 * 1024 ** 3 });
      store.open();
      const blob = 'x'.repeat(1000);
      for (let i = 0; i < 100_000; i++) {
        store.recordCall(call(i, blob));
        if (i % 5000 === 4999) store.flush();
      }
      await store.close();

      const gc = collector();
      gc();
      const baseline = process.memoryUsage().heapUsed;
      let peak = baseline;
      let bytes = 0;
      let lines = 0;
      let nextSample = 10_000;
      let samples = 0;
      const sink = new Writable({
        highWaterMark: 64 * 1024,
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          for (const b of chunk) if (b === 10) lines++;
          if (lines >= nextSample) {
            nextSample += 10_000;
            gc();
            peak = Math.max(peak, process.memoryUsage().heapUsed);
            samples++;
          }
          setImmediate(done);
        },
      });
      const count = await exportAudit({ path, format: 'jsonl' }, sink);
      await new Promise<void>((resolve) => sink.end(resolve));
      assert.equal(count, 100_000);
      assert.equal(lines, 100_000);
      assert.ok(samples >= 9, 'the heap was sampled throughout the export');
      const growth = peak - baseline;
      process.stdout.write(`# export: ${(bytes / 1e6).toFixed(1)} MB written, live heap ${(baseline / 1e6).toFixed(1)} MB before, at most ${(peak / 1e6).toFixed(1)} MB during (${samples} samples after a full collection)\n`);
      assert.ok(bytes > 100e6, 'the export is larger than 100 MB');
      assert.ok(growth < bytes / 20, `live heap grew ${growth} bytes during a ${bytes}-byte export`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the writer thread starts with the first record, stops when the trail is quiet, and starts again for the next record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junction-audit-rest-'));
    const store = new AuditStore({ path: join(dir, 'audit.db'), rules: compileRedaction([]), logger: silentLogger, retentionDays: 30, maxBytes: 1024 * 1024 * 1024, restAfterMs: 50, now: () => 1_700_000_100_000 });
    try {
      store.open();
      assert.equal(store.status().state, 'open', 'opened and migrated at start');
      assert.equal(store.writerRunning, false, 'no thread while nothing was recorded');
      store.recordCall(call(1));
      store.flush();
      assert.equal(store.writerRunning, true);
      await eventually(() => !store.writerRunning, 10_000, 'the writer thread to stop once the trail is quiet');
      assert.equal(store.status().state, 'open');
      assert.deepEqual((await store.queryCalls({ limit: 10 })).items.map((c) => c.call.callId), ['call-1']);
      store.recordCall(call(2));
      store.flush();
      assert.deepEqual((await store.queryCalls({ limit: 10 })).items.map((c) => c.call.callId), ['call-2', 'call-1'], 'a new thread writes the next record');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('retention: records past the age are deleted and the file is kept under its size cap', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junction-audit-retention-'));
    try {
      const path = join(dir, 'audit.db');
      let now = 1_700_000_000_000 + 10 * 86_400_000;
      const store = new AuditStore({ path, rules: compileRedaction([]), logger: silentLogger, retentionDays: 5, maxBytes: 2 * 1024 * 1024, now: () => now });
      store.open();
      store.recordCall(call(0));
      store.flush();
      now += 86_400_000;
      store.prune();
      assert.equal((await store.queryCalls({ limit: 10 })).items.length, 0, 'a call older than audit-retention-days is gone');
      const blob = 'y'.repeat(4000);
      for (let i = 1; i <= 3000; i++) store.recordCall({ ...call(i, blob), call: { ...call(i).call, startedAt: now } });
      store.flush();
      // Each pass holds the event loop briefly; the store continues at later flushes, a test just repeats it.
      for (let pass = 0; pass < 100 && store.fileBytes() > 2.5 * 1024 * 1024; pass++) store.prune();
      await store.close();
      const reopened = new AuditStore({ path, rules: compileRedaction([]), logger: silentLogger, retentionDays: 5, maxBytes: 2 * 1024 * 1024, now: () => now });
      reopened.open();
      const kept = (await reopened.queryCalls({ limit: 5000 })).items;
      assert.ok(kept.length > 0 && kept.length < 3000, `kept ${kept.length} of 3000`);
      assert.equal(kept[0]!.call.callId, 'call-3000', 'the newest calls are kept');
      assert.ok(reopened.fileBytes() <= 2.5 * 1024 * 1024, `file is ${reopened.fileBytes()} bytes`);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('retention: a backlog of expired calls larger than one step goes over the following writes, and the file then gives the freed pages back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junction-audit-backlog-'));
    try {
      const path = join(dir, 'audit.db');
      let now = 1_700_000_000_000;
      const store = new AuditStore({ path, rules: compileRedaction([]), logger: silentLogger, retentionDays: 1, maxBytes: 1024 ** 3, now: () => now });
      store.open();
      // More than two of retention's steps (10,000 rows each).
      const old = 25_000;
      for (let i = 0; i < old; i++) store.recordCall({ ...call(i), call: { ...call(i).call, startedAt: now } });
      store.flush();
      now += 2 * 86_400_000;
      let i = old;
      const db = new Database(path, { readonly: true });
      try {
        const oldLeft = db.prepare('SELECT COUNT(*) FROM calls WHERE started_at < ?').pluck();
        for (let write = 0; write < 10 && (oldLeft.get(now - 86_400_000) as number) > 0; write++) {
          store.recordCall({ ...call(i), call: { ...call(i++).call, startedAt: now } });
          store.flush();
        }
        assert.equal(oldLeft.get(now - 86_400_000), 0, 'every expired call is gone after a few writes');
        const pages = db.pragma('page_count', { simple: true }) as number;
        const free = db.pragma('freelist_count', { simple: true }) as number;
        assert.ok(free <= pages / 4, `${free} of ${pages} pages are free once the pass ended`);
      } finally {
        db.close();
      }
      assert.deepEqual((await store.queryCalls({ limit: 100 })).items.map((c) => c.call.callId), Array.from({ length: i - old }, (_, k) => `call-${i - 1 - k}`), 'the new calls are kept');
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
