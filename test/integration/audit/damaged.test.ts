/**
 * A truncated audit database, on real files and a real Junction: the operator is told (a warning in the
 * log and a `notice.raised` for the console), history says why it is unavailable, and calls go on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditDbPath, AuditStore, compileRedaction, mountAudit } from '../../../src-main/audit/index.js';
import { createControlHub } from '../../../src-main/control/index.js';
import type { AuditProblem } from '../../../src-main/audit/store.js';
import type { ControlEvent, OperatorNotice } from '../../../src-main/contracts/index.js';
import { silentLogger, type Logger } from '../../../src-main/shared/log.js';
import { timeOrderedId } from '../../../src-main/shared/time-ordered-id.js';
import { startTestJunction } from '../../support/junction-harness.js';

function storeAt(path: string, onProblem?: (problem: AuditProblem) => void): AuditStore {
  return new AuditStore({ path, rules: compileRedaction([]), logger: silentLogger, retentionDays: 36_500, maxBytes: 1024 ** 3, ...(onProblem ? { onProblem } : {}) });
}

function recordCalls(store: AuditStore, count: number): void {
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const args = JSON.stringify({ text: `call ${i} `.repeat(30) });
    store.recordCall({ call: { callId: timeOrderedId(now + i), agent: 'agent', transport: 'http-api', tool: 'echo', target: 'host', status: 'ok', startedAt: now + i, requestBytes: args.length }, json: { arguments: args }, policy: null, decidedBy: null });
  }
}

test('a database cut short by a few pages is refused as damaged at open, with a problem for the operator, and recording calls never throws', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'junction-audit-truncated-'));
  try {
    const path = join(dir, 'audit.db');
    const first = storeAt(path);
    first.open();
    recordCalls(first, 5_000);
    await first.close();
    assert.equal(existsSync(`${path}-wal`), false, 'a clean close leaves no write-ahead log');
    // The last pages go: SQLite itself would notice only once a read reached them.
    truncateSync(path, statSync(path).size - 8 * 4096);
    const problems: AuditProblem[] = [];
    const second = storeAt(path, (problem) => problems.push(problem));
    second.open();
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.key, 'corrupt');
    assert.match(problems[0]!.message, /is damaged \(it is truncated: \d+ bytes of the \d+ its header records\); move it aside/);
    assert.doesNotThrow(() => recordCalls(second, 10));
    assert.equal(second.status().state, 'unavailable');
    assert.equal((await second.queryCalls({ limit: 10 })).items.length, 0);
    await second.close();
    assert.equal(problems.length, 1, 'one notice per distinct problem, not one per retry');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A trail of 5,000 calls in `stateDir`, closed cleanly, then cut short by its last eight pages. */
async function truncatedTrail(stateDir: string): Promise<string> {
  const path = auditDbPath(stateDir);
  const store = storeAt(path);
  store.open();
  recordCalls(store, 5_000);
  await store.close();
  truncateSync(path, statSync(path).size - 8 * 4096);
  return path;
}

test('mounted on a truncated trail, the audit part raises one error notice on the real control hub', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-audit-truncated-'));
  const hub = createControlHub({ version: 'test' });
  const notices: OperatorNotice[] = [];
  const unsubscribe = hub.subscribe((event: ControlEvent) => {
    if (event.type === 'notice.raised') notices.push(event.notice);
  });
  try {
    await truncatedTrail(stateDir);
    const mounted = mountAudit({ enabled: true, stateDir, redact: [], retentionDays: 36_500, maxMb: 1024, logger: silentLogger, events: hub });
    try {
      assert.equal(notices.length, 1);
      const [notice] = notices;
      assert.equal(notice!.level, 'error');
      assert.equal(notice!.subject.kind, 'audit');
      assert.match(notice!.message, /^The audit database .* is damaged \(it is truncated: .*Tool calls continue/);
    } finally {
      await mounted.dispose();
    }
  } finally {
    unsubscribe();
    rmSync(stateDir, { recursive: true, force: true });
  }
});

test('a real Junction started on a truncated trail warns, answers calls, and its history says why it is unavailable', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-audit-truncated-'));
  const warnings: string[] = [];
  const logger: Logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
  try {
    await truncatedTrail(stateDir);
    const junction = await startTestJunction([`state-dir=${stateDir}`], logger);
    try {
      const res = await fetch(`${junction.baseUrl}/api/tools/no-such-tool`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(res.status, 404, await res.text());
      assert.ok(warnings.some((w) => /audit database .* is damaged \(it is truncated/.test(w)), warnings.join('\n'));
      const history = await junction.audit!.history.query({ limit: 10 });
      assert.equal(history.available, false);
      assert.match(history.reason ?? '', /truncated/);
      const standing = (await junction.control.snapshot()).notices;
      assert.ok(standing.some((n) => n.subject.kind === 'audit' && n.level === 'error' && /truncated/.test(n.message)), 'a console opened after start-up is told');
    } finally {
      await junction.stop();
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
});
