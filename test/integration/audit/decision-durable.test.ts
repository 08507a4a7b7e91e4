/**
 * An operator's decision on a held call is in the audit database before the call it allowed runs, on a
 * real Junction with a real MCP agent: a second SQLite connection (another reader of the file, as after
 * a crash) finds it at the moment the decision is told, which is before the held call is released.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { auditDbPath } from '../../../src-main/audit/index.js';
import type { CallApprovalView, ControlEvent, PolicyDocument } from '../../../src-main/contracts/console.js';
import { eventually, startTestJunction } from '../../support/junction-harness.js';

const POLICY: PolicyDocument = { rules: [{ tool: 'server-status', action: 'ask', reason: 'status needs a human' }] };

/** The recorded decisions' ask ids, read through a connection of the test's own. */
function recordedDecisions(path: string): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT data FROM events WHERE kind = 'callApproval.decided'").pluck().all() as string[];
    return rows.map((data) => (JSON.parse(data) as { askId: string; decidedBy?: string }).askId);
  } finally {
    db.close();
  }
}

test('the operator’s decision is durable in the audit database before the held call proceeds', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'junction-decision-durable-'));
  const policyPath = join(dir, 'policy.json');
  await writeFile(policyPath, JSON.stringify(POLICY));
  const junction = await startTestJunction([`approval-policy=${policyPath}`, 'approval-timeout=30']);
  const path = auditDbPath(junction.stateDir);
  const held: CallApprovalView[] = [];
  const atDecision: Array<{ askId: string; recorded: string[]; callRecorded: boolean }> = [];
  const unsubscribe = junction.control.subscribe((event: ControlEvent) => {
    if (event.type === 'callApproval.requested') held.push(event.approval);
    // Told synchronously, before the held call is released: what the file holds now is what a crash here would leave.
    if (event.type === 'callApproval.decided') {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      const callRecorded = db.prepare('SELECT 1 FROM calls WHERE call_id = ?').get(event.approval.callId) !== undefined;
      db.close();
      atDecision.push({ askId: event.approval.askId, recorded: recordedDecisions(path), callRecorded });
    }
  });
  try {
    const agent = await junction.connectAgent();
    const result = agent.callTool({ name: 'server-status', arguments: {} }, undefined, { timeout: 30_000 });
    const view = await eventually(() => held[0], 10_000, 'the held call');
    await junction.control.decideCall({ askId: view.askId, digest: view.digest, decision: 'allow-once' });
    const outcome = await result;
    assert.notEqual(outcome.isError, true, 'the allowed call ran');
    assert.equal(atDecision.length, 1);
    assert.equal(atDecision[0]!.callRecorded, false, 'observed before the call ran and was recorded');
    assert.deepEqual(atDecision[0]!.recorded, [view.askId], 'the decision was already in the file');
  } finally {
    unsubscribe();
    await junction.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
