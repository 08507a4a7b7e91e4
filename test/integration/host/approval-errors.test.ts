import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { call, snapshotOf, startHost, type HostFixture } from './fixtures.js';

type Result = Awaited<ReturnType<typeof call>>;
function expectError(r: Result, code: string, next: { kind: string; tools: string[] }): void {
  assert.equal(r.isError, true, `expected ${code}, got ${JSON.stringify(r.value)}`);
  assert.equal(r.error.code, code, r.error.message);
  assert.deepEqual(r.error.next, next);
}
const REVIEW = { kind: 'requestReview', tools: ['transaction-review'] };

describe('approval-required: receipts and decisions', () => {
  let f: HostFixture;
  let original: string;
  before(async () => {
    f = await startHost('approval-required');
    original = await readFile(join(f.root, 'src/main.ts'), 'utf8');
  });
  after(async () => f.cleanup());

  async function stageOne(content: string): Promise<Record<string, unknown>> {
    const snap = await snapshotOf(f.mcp);
    const r = await call(f.mcp, 'stage-edits', { expectedSnapshot: snap, summary: 'edit main', changes: [{ kind: 'replace', path: 'src/main.ts', content }] });
    assert.equal(r.isError, false, JSON.stringify(r.value));
    return r.value.snapshot as Record<string, unknown>;
  }

  /** Starts a review and decides it as soon as it is requested. */
  async function review(snapshot: unknown, decision: 'approve' | 'deny', reason?: string): Promise<Result> {
    const off = f.host.events.on('approval.requested', (e) => queueMicrotask(() => f.host.approvals.decide(e.approval.approvalId, decision, reason)));
    try {
      return await call(f.mcp, 'transaction-review', { expectedSnapshot: snapshot, waitSeconds: 30 });
    } finally {
      off();
    }
  }

  test('commit without a receipt: ReviewRequired; denial: ReviewRequired with the reason; nothing written', async () => {
    await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) });
    const snap = await stageOne('export const summary = "denied";\n');
    expectError(await call(f.mcp, 'transaction-commit', { expectedSnapshot: snap, receipt: '' }), 'InvalidArguments', { kind: 'fixArguments', tools: ['transaction-commit'] });
    const denied = await review(snap, 'deny', 'not this way');
    expectError(denied, 'ReviewRequired', REVIEW);
    assert.equal(denied.error.details?.reason, 'not this way');
    assert.equal(f.host.approvals.decisions().at(-1)?.state, 'denied');
    assert.equal(await readFile(join(f.root, 'src/main.ts'), 'utf8'), original);
  });

  test('forged and stale receipts: ReceiptInvalid, nothing written', async () => {
    const snap1 = await snapshotOf(f.mcp);
    const approved = await review(snap1, 'approve');
    assert.equal(approved.isError, false, JSON.stringify(approved.value));
    const receipt = approved.value.receipt as string;
    const [prefix, payload, signature] = receipt.split('.');
    const tampered = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    tampered.revision = 7;
    const forged = `${prefix}.${Buffer.from(JSON.stringify(tampered)).toString('base64url')}.${signature}`;
    expectError(await call(f.mcp, 'transaction-commit', { expectedSnapshot: snap1, receipt: forged }), 'ReceiptInvalid', REVIEW);
    expectError(await call(f.mcp, 'transaction-commit', { expectedSnapshot: snap1, receipt: 'garbage' }), 'ReceiptInvalid', REVIEW);
    const snap2 = await stageOne('export const summary = "second";\n');
    expectError(await call(f.mcp, 'transaction-commit', { expectedSnapshot: snap2, receipt }), 'ReceiptInvalid', REVIEW);
    assert.equal(await readFile(join(f.root, 'src/main.ts'), 'utf8'), original);
  });

  test('a receipt is single-use: reused in a later transaction it is ReceiptInvalid', async () => {
    const snap = await snapshotOf(f.mcp);
    const approved = await review(snap, 'approve');
    const receipt = approved.value.receipt as string;
    const committed = await call(f.mcp, 'transaction-commit', { expectedSnapshot: snap, receipt });
    assert.equal(committed.isError, false, JSON.stringify(committed.value));
    assert.equal(await readFile(join(f.root, 'src/main.ts'), 'utf8'), 'export const summary = "second";\n');
    await call(f.mcp, 'transaction-start', { expectedSnapshot: committed.value.snapshot });
    const snap2 = await stageOne('export const summary = "third";\n');
    expectError(await call(f.mcp, 'transaction-commit', { expectedSnapshot: snap2, receipt }), 'ReceiptInvalid', REVIEW);
  });

  test('a review that times out stays pending and a later call resumes it', async () => {
    const snap = await snapshotOf(f.mcp);
    const progress: Array<{ progress: number; total?: number }> = [];
    const raw = await f.mcp.client.callTool({ name: 'transaction-review', arguments: { expectedSnapshot: snap, waitSeconds: 2 } }, undefined, { onprogress: (p) => progress.push(p) });
    const pending = { isError: raw.isError === true, value: raw.structuredContent as Record<string, unknown>, error: (raw.structuredContent as { error: Result['error'] }).error };
    expectError(pending, 'ReviewRequired', REVIEW);
    assert.equal(pending.error.details?.state, 'pending');
    assert.ok(progress.length >= 1 && progress.every((p) => p.total === 2), `progress while waiting: ${JSON.stringify(progress)}`);
    assert.equal(f.host.approvals.pending().length, 1);
    const approvalId = f.host.approvals.pending()[0]!.approvalId;
    f.host.approvals.decide(approvalId, 'approve');
    const resumed = await call(f.mcp, 'transaction-review', { expectedSnapshot: snap, waitSeconds: 30 });
    assert.equal(resumed.isError, false, JSON.stringify(resumed.value));
    assert.equal((resumed.value.approval as { approvalId: string }).approvalId, approvalId);
    assert.equal(f.host.approvals.pending().length, 0);
  });

  test('ApprovalNotFound and Conflict from the operator side', () => {
    assert.throws(() => f.host.approvals.decide('nope', 'approve'), { code: 'ApprovalNotFound' });
    const last = f.host.approvals.decisions().at(-1)!;
    assert.throws(() => f.host.approvals.decide(last.approvalId, 'deny'), { code: 'Conflict' });
  });
});
