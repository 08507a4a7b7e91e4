/**
 * The policy file edited by hand while Junction runs: a valid edit takes effect (audited, announced as
 * `policy.updated`), an invalid one keeps the policy in force with a log line and an operator notice,
 * and neither a console save nor an "always allow" ever writes over an outside edit.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallApprovalView, ControlEvent, OperatorNotice, PolicyDocument } from '../../../src-main/contracts/console.js';
import type { Logger } from '../../../src-main/shared/log.js';
import { readTrail } from '../../support/audit-store.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

type Structured = { error?: { code: string; message: string } };
const isConflict = (e: Error & { code?: string }) => e.code === 'Conflict';

describe('the approval policy file is watched', () => {
  let dir: string;
  let stateDir: string;
  let path: string;
  let junction: TestJunction;
  const events: ControlEvent[] = [];
  const warnings: string[] = [];
  const logger: Logger = { error() {}, info() {}, debug() {}, warn: (m) => warnings.push(m) };

  const status = async () => {
    const response = await fetch(`${junction.baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return { status: response.status, body: (await response.json()) as Structured };
  };
  const policyVersion = async () => (await junction.control.snapshot()).policy!.version;
  const handEdit = (document: PolicyDocument | string) => writeFile(path, typeof document === 'string' ? document : JSON.stringify(document, null, 2));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junction-policy-file-'));
    stateDir = join(dir, 'state');
    path = join(dir, 'policy.json');
    await handEdit({ rules: [{ tool: 'transaction-*', action: 'ask' }] });
    junction = await startTestJunction([`approval-policy=${path}`, `state-dir=${stateDir}`, 'approval-timeout=20'], logger);
    junction.control.subscribe((e) => events.push(e));
  });
  after(async () => {
    await junction?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('a valid edit takes effect at once, lands in the audit trail and emits policy.updated', async () => {
    assert.equal((await status()).status, 200);
    await handEdit({ rules: [{ tool: 'server-status', action: 'deny', reason: 'edited by hand' }] });
    const updated = await eventually(() => events.find((e) => e.type === 'policy.updated'), 5000, 'policy.updated');
    assert.ok(updated.type === 'policy.updated');
    assert.deepEqual({ kind: updated.change.kind, by: updated.change.by, version: updated.change.version }, { kind: 'reloaded', by: 'file', version: 2 });
    const denied = await status();
    assert.equal(denied.status, 403);
    assert.match(denied.body.error!.message, /edited by hand/);
  });

  test('an invalid edit keeps the policy in force, warns in the log and the console, and blocks saves until fixed', async () => {
    const version = await policyVersion();
    await handEdit('{"rules": [{"tool": "server-status", "action": "maybe"}');
    const notice = await eventually(
      () => events.flatMap((e) => (e.type === 'notice.raised' ? [e.notice] : [])).find((n: OperatorNotice) => n.subject.kind === 'policy'),
      5000,
      'a policy notice',
    );
    assert.equal(notice.level, 'warning');
    assert.match(notice.message, /not valid JSON/);
    assert.ok(warnings.some((w) => /approval-policy: an outside edit was not loaded/.test(w)), warnings.join('\n'));
    assert.equal(await policyVersion(), version, 'the policy in force did not change');
    assert.equal((await status()).status, 403, 'the old rule still denies');
    assert.match((await junction.control.snapshot()).policy!.fileProblem ?? '', /not valid JSON/);
    await assert.rejects(junction.control.savePolicy({ text: '{"rules":[]}', baseVersion: version }), isConflict);
    assert.match(await readFile(path, 'utf8'), /"maybe"/, 'the hand edit is still in the file');

    await handEdit({ rules: [{ tool: 'server-status', action: 'allow' }] });
    await eventually(async () => (await policyVersion()) > version, 5000, 'the fixed file to load');
    assert.equal((await status()).status, 200);
    assert.equal((await junction.control.snapshot()).policy!.fileProblem, undefined);
  });

  test('a console save and an always-allow over an outside edit not yet seen are refused with Conflict', async () => {
    const version = await policyVersion();
    const hand = JSON.stringify({ rules: [{ tool: 'server-status', action: 'ask', reason: 'by hand, just now' }] });
    // Written and saved over at once, before the watcher could tell: the save itself reads the file first.
    await writeFile(path, hand);
    await assert.rejects(junction.control.savePolicy({ text: '{"rules":[]}', baseVersion: version }), isConflict);
    assert.equal(await readFile(path, 'utf8'), hand);
    await eventually(async () => (await policyVersion()) > version, 5000, 'the edit to load');

    const calling = status();
    const held = await eventually(
      () => events.flatMap((e) => (e.type === 'callApproval.requested' ? [e.approval] : [])).find((a: CallApprovalView) => a.tool === 'server-status'),
      5000,
      'the held call',
    );
    const second = JSON.stringify({ rules: [{ tool: 'server-status', action: 'ask', reason: 'edited again' }, { tool: 'x', action: 'deny' }] });
    await writeFile(path, second);
    await assert.rejects(junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'always' }), isConflict);
    assert.equal(await readFile(path, 'utf8'), second, 'always-allow did not write over the hand edit');
    const latest = () => events.flatMap((e) => (e.type === 'callApproval.requested' && e.approval.askId === held.askId ? [e.approval] : [])).at(-1);
    const current = await eventually(() => latest()?.reason.includes('edited again') && latest(), 5000, 'the held call re-bound to the reloaded policy');
    await junction.control.decideCall({ askId: current.askId, digest: current.digest, decision: 'allow-once' });
    assert.equal((await calling).status, 200);
  });

  test('every reload is in the audit trail', async () => {
    await junction.stop();
    const edits = readTrail(join(stateDir, 'audit', 'audit.db'), (db) => db.prepare("SELECT data FROM events WHERE kind = 'policy.edited' ORDER BY seq").all() as Array<{ data: string }>);
    const kinds = edits.map((e) => (JSON.parse(e.data) as { change: { kind: string; by: string } }).change);
    assert.ok(kinds.length >= 3, JSON.stringify(kinds));
    assert.ok(kinds.every((k) => k.kind === 'reloaded' && k.by === 'file'), JSON.stringify(kinds));
  });
});
