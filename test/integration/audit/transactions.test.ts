import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEMO_WORKSPACE_DIR } from '../../../src-main/app/paths.js';
import type { TransactionHistoryPage } from '../../../src-main/contracts/index.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

type Structured = Record<string, unknown>;

describe('audit trail: transaction events from a real approval-required workspace', () => {
  let root: string;
  let junction: TestJunction;
  let agent: Client;

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await agent.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.structuredContent)}`);
    return (result.structuredContent ?? {}) as Structured;
  };
  const snapshot = async () => ((await call('workspace-status', {})).items as Array<{ snapshot: unknown }>)[0]!.snapshot;
  const stage = async (line: string, summary: string) => {
    const started = await call('transaction-start', { expectedSnapshot: await snapshot() });
    const staged = await call('stage-edits', {
      expectedSnapshot: started.snapshot,
      summary,
      changes: [{ kind: 'edit', path: 'src/money.ts', edits: [{ range: { start: { offset: 0 }, end: { offset: 0 } }, newText: line }] }],
    });
    return staged.snapshot;
  };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'junction-audit-tx-'));
    await cp(DEMO_WORKSPACE_DIR, join(root, 'ws'), { recursive: true });
    junction = await startTestJunction([`state-dir=${join(root, 'state')}`, 'mode=approval-required', `workspace=${join(root, 'ws')}`]);
    agent = await junction.connectAgent();
  });
  after(async () => {
    await junction?.stop();
    await rm(root, { recursive: true, force: true });
  });

  test('a reviewed commit keeps its diff, approval, receipt and checksums; a rollback is kept too', async () => {
    const staged = await stage('// audited commit\n', 'add an audited line');
    const reviewing = call('transaction-review', { expectedSnapshot: staged, waitSeconds: 60 });
    const approval = await eventually(() => junction.workspaceHost.approvals.pending()[0], 10_000, 'the approval request');
    const requester = approval.requestedBy;
    assert.equal(requester?.agentName, 'test-agent', 'the approval names the client that asked for it');
    assert.equal(requester?.transport, 'mcp-http');
    assert.match(requester?.sessionId ?? '', /^[0-9a-f-]{36}$/, 'and its MCP session');
    assert.match(requester?.agent ?? '', /^test-agent\/1\.0\.0 /);
    await junction.control.approve({ approvalId: approval.approvalId });
    const review = await reviewing;
    const commit = await call('transaction-commit', { expectedSnapshot: staged, receipt: review.receipt });

    const abandoned = await stage('// rolled back\n', 'a line nobody wanted');
    await call('transaction-rollback', { expectedSnapshot: abandoned });

    const result = await junction.control.execute('transactionHistory', {});
    assert.ok(result.ok);
    const page = result.value as TransactionHistoryPage;
    assert.equal(page.available, true);
    const [rolledBack, committed] = page.transactions;
    assert.equal(rolledBack?.state, 'rolledBack');
    assert.equal(rolledBack?.revisions[0]?.summary, 'a line nobody wanted');
    assert.equal(committed?.state, 'committed');
    assert.equal(committed?.transactionId, commit.transactionId);
    assert.equal(committed?.workspaceName, 'ws');
    assert.equal(committed?.revisions.length, 1);
    assert.equal(committed?.revisions[0]?.summary, 'add an audited line');
    assert.match(committed?.revisions[0]?.files[0]?.diff ?? '', /\+\/\/ audited commit/);
    assert.equal(committed?.receipt, review.receipt);
    assert.deepEqual(committed?.approvals.map((a) => a.state), ['approved']);
    assert.deepEqual(committed?.approvals[0]?.requestedBy, requester, 'the audit trail keeps who asked, across the decision');
    const files = (committed?.commit as { files: Array<{ path: string; beforeSha256: string | null; afterSha256: string | null }> }).files;
    assert.deepEqual(files.map((f) => f.path), ['src/money.ts']);
    assert.match(files[0]!.afterSha256 ?? '', /^[0-9a-f]{64}$/);
    assert.notEqual(files[0]!.beforeSha256, files[0]!.afterSha256);
  });
});

test('with the audit trail off, history and ended transactions say so instead of showing nothing', async () => {
  const junction = await startTestJunction(['audit=false']);
  try {
    const history = await junction.control.execute('history', {});
    const transactions = await junction.control.execute('transactionHistory', {});
    assert.ok(history.ok && transactions.ok);
    const page = transactions.value as TransactionHistoryPage;
    assert.deepEqual({ available: page.available, transactions: page.transactions }, { available: false, transactions: [] });
    assert.match(page.reason ?? '', /audit trail is off \(audit=false\), so ended transactions are not kept/);
    assert.match((history.value as { reason?: string }).reason ?? '', /audit trail is off \(audit=false\); only calls kept in memory are shown/);
  } finally {
    await junction.stop();
  }
});
