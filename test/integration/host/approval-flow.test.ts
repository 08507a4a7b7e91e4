import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { call, snapshotOf, startHost, type HostFixture } from './fixtures.js';

describe('approval-required mode over MCP, end to end', () => {
  let f: HostFixture;
  before(async () => {
    f = await startHost('approval-required');
  });
  after(async () => f.cleanup());

  test('start, stage, preview, review, approve, commit: disk equals the preview', async () => {
    const original = await readFile(join(f.root, 'src/money.ts'), 'utf8');
    const started = await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) });
    assert.equal(started.isError, false, JSON.stringify(started.value));

    const offset = original.indexOf('export function format');
    const staged = await call(f.mcp, 'stage-edits', {
      expectedSnapshot: started.value.snapshot,
      summary: 'add a zero helper and a new module',
      changes: [
        { kind: 'edit', path: 'src/money.ts', edits: [{ range: { start: { offset }, end: { offset } }, newText: 'export const zero = money(0);\n\n' }] },
        { kind: 'create', path: 'src/tax.ts', content: "import { money, type Money } from './money.js';\nexport const tax = (m: Money): Money => money(Math.round(m.cents * 0.2), m.currency);\n" },
      ],
    });
    assert.equal(staged.isError, false, JSON.stringify(staged.value));
    const revision = staged.value.revision as { revision: number; files: Array<{ path: string }> };
    assert.equal(revision.revision, 1);
    assert.deepEqual(revision.files.map((x) => x.path), ['src/money.ts', 'src/tax.ts']);

    const preview = await call(f.mcp, 'transaction-preview', { expectedSnapshot: staged.value.snapshot });
    const files = (preview.value.files as { items: Array<{ path: string; change: string; diff: string }> }).items;
    assert.deepEqual(files.map((x) => [x.path, x.change]), [['src/money.ts', 'modify'], ['src/tax.ts', 'create']]);

    const requested = new Promise<string>((resolve) => f.host.events.on('approval.requested', (e) => resolve(e.approval.approvalId)));
    const decided = new Promise<string>((resolve) => f.host.events.on('approval.decided', (e) => resolve(e.approval.state)));
    const progress: number[] = [];
    const reviewing = f.mcp.client.callTool(
      { name: 'transaction-review', arguments: { expectedSnapshot: staged.value.snapshot, waitSeconds: 30 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    const approvalId = await requested;
    assert.equal(f.host.approvals.pending().length, 1);
    f.host.approvals.decide(approvalId, 'approve');
    assert.equal(await decided, 'approved');
    const review = await reviewing;
    assert.notEqual(review.isError, true, JSON.stringify(review.structuredContent));
    const receipt = (review.structuredContent as { receipt: string }).receipt;

    const committed = await call(f.mcp, 'transaction-commit', { expectedSnapshot: staged.value.snapshot, receipt });
    assert.equal(committed.isError, false, JSON.stringify(committed.value));
    assert.equal((committed.value.snapshot as { transactionRevision: number }).transactionRevision, 0);

    const moneyDiff = files.find((x) => x.path === 'src/money.ts')!.diff;
    assert.equal(await readFile(join(f.root, 'src/money.ts'), 'utf8'), applyPatch(original, moneyDiff));
    assert.equal(await readFile(join(f.root, 'src/tax.ts'), 'utf8'), applyPatch('', files.find((x) => x.path === 'src/tax.ts')!.diff));

    const reused = await call(f.mcp, 'transaction-commit', { expectedSnapshot: committed.value.snapshot, receipt });
    assert.equal(reused.error.code, 'TransactionRequired');
    assert.deepEqual(reused.error.next, { kind: 'startTransaction', tools: ['transaction-start'] });
  });

  test('the approval prompt says whether the change compiles: errors added in changed files and their importers', async () => {
    const original = await readFile(join(f.root, 'src/money.ts'), 'utf8');
    const started = await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) });
    const at = original.indexOf('export function add(');
    assert.ok(at >= 0);
    const staged = await call(f.mcp, 'stage-edits', {
      expectedSnapshot: started.value.snapshot,
      summary: 'rename add to plus (breaks its importers)',
      changes: [{ kind: 'edit', path: 'src/money.ts', edits: [{ range: { start: { offset: at + 'export function '.length }, end: { offset: at + 'export function add'.length } }, newText: 'plus' }] }],
    });
    assert.equal(staged.isError, false, JSON.stringify(staged.value));
    const requested = new Promise<{ approvalId: string; compile?: { errorsAdded: number; added: Array<{ path: string; category: string }>; checkedFiles: number } }>((resolve) =>
      f.host.events.on('approval.requested', (e) => resolve(e.approval)),
    );
    const reviewing = call(f.mcp, 'transaction-review', { expectedSnapshot: staged.value.snapshot, waitSeconds: 30 });
    const approval = await requested;
    assert.ok(approval.compile, 'the prompt carries the compile check');
    assert.ok(approval.compile.errorsAdded > 0, JSON.stringify(approval.compile));
    assert.ok(approval.compile.added.some((d) => d.path === 'src/cart.ts' && d.category === 'error'), 'an importer that was never touched breaks');
    assert.ok(approval.compile.checkedFiles >= 2);
    f.host.approvals.decide(approval.approvalId, 'deny', 'it does not compile');
    const review = await reviewing;
    assert.equal(review.error.code, 'ReviewRequired');
    assert.deepEqual((review.error.details as { compile: unknown }).compile, approval.compile, 'the agent gets the same diagnostics');
    const rolledBack = await call(f.mcp, 'transaction-rollback', { expectedSnapshot: staged.value.snapshot });
    assert.equal(rolledBack.isError, false, JSON.stringify(rolledBack.value));
  });
});
