import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJournal } from '../../../src-main/recovery/index.js';
import { createHost } from '../../../src-main/host/index.js';
import { call, DEMO_WORKSPACE, snapshotOf, startHost, type HostFixture } from './fixtures.js';

describe('compiler-validation mode', () => {
  let f: HostFixture;
  before(async () => {
    f = await startHost('compiler-validation');
  });
  after(async () => f.cleanup());

  test('staging that adds compiler errors fails with ValidationFailed and the new diagnostics', async () => {
    const started = await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) });
    const snap = started.value.snapshot;
    const bad = await call(f.mcp, 'stage-edits', { expectedSnapshot: snap, summary: 'break', changes: [{ kind: 'replace', path: 'src/discount.ts', content: 'export const broken: number = "text";\n' }] });
    assert.equal(bad.isError, true);
    assert.equal(bad.error.code, 'ValidationFailed');
    assert.deepEqual(bad.error.next, { kind: 'fixArguments', tools: ['diagnostics'] });
    const added = bad.error.details?.diagnostics as Array<{ path: string; code: string }>;
    assert.ok(added.some((d) => d.path === 'src/discount.ts' && d.code === 'TS2322'), JSON.stringify(added));
    assert.ok(added.some((d) => d.path === 'src/main.ts'), 'breaking an export is caught in the importer too');
    assert.deepEqual(await snapshotOf(f.mcp), snap);
    const good = await call(f.mcp, 'stage-edits', { expectedSnapshot: snap, summary: 'fine', changes: [{ kind: 'create', path: 'src/ok.ts', content: 'export const ok: number = 1;\n' }] });
    assert.equal(good.isError, false, JSON.stringify(good.value));
  });
});

describe('inspection-only mode and a blocked journal', () => {
  test('host.rollback in inspection-only fails with ModeForbidsMutation', async () => {
    const f = await startHost('inspection-only');
    try {
      const [w] = f.host.workspaces();
      assert.throws(() => f.host.rollback(w!.workspaceId, 0), (e: { code: string; next: unknown }) => {
        assert.equal(e.code, 'ModeForbidsMutation');
        assert.deepEqual(e.next, { kind: 'inspectStatus', tools: ['server-status'] });
        return true;
      });
      const listed = await f.mcp.client.listTools();
      assert.ok(!listed.tools.some((t) => t.name.startsWith('transaction-') || t.name === 'stage-edits'));
    } finally {
      await f.cleanup();
    }
  });

  test('RecoveryPending when the journal reports unresolved evidence for the workspace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'junction-host-blocked-'));
    const journal = createJournal({ stateDir: join(dir, 'state'), instanceId: 'blocked-test' });
    await journal.open();
    const root = join(dir, 'ws');
    await cp(DEMO_WORKSPACE, root, { recursive: true });
    let blocked = false;
    const host = createHost({
      mode: 'autonomous-trusted',
      toolOutputSchema: 'publish',
      watch: false,
      journal: { commit: (r) => journal.commit(r), status: () => journal.status(), blockedWorkspaces: () => (blocked ? [{ workspaceRoot: null, code: 'RecoveryPending' as const, detail: 'manifest m1 incomplete' }] : []) },
    });
    try {
      await host.openWorkspace(root, { trusted: true });
      const w = host.extensions.workspaces.resolve(undefined);
      const context = { callId: 'blocked', agent: 'test', transport: 'http-api' as const, signal: new AbortController().signal };
      const run = async (name: string, args: Record<string, unknown>) => (await host.toolSource.callTool(name, args, context)).result.structuredContent as Record<string, unknown>;
      const started = await run('transaction-start', { expectedSnapshot: w.identity() });
      const staged = await run('stage-edits', { expectedSnapshot: started.snapshot, summary: 'x', changes: [{ kind: 'create', path: 'src/x.ts', content: '' }] });
      blocked = true;
      const refused = await run('transaction-commit', { expectedSnapshot: staged.snapshot });
      const error = refused.error as { code: string; next: unknown };
      assert.equal(error.code, 'RecoveryPending');
      assert.deepEqual(error.next, { kind: 'inspectStatus', tools: ['recovery-status'] });
    } finally {
      host.close();
      await journal.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('queries, status and change detection', () => {
  let f: HostFixture;
  before(async () => {
    f = await startHost('transactional', { watch: true });
  });
  after(async () => f.cleanup());

  test('document-read by line/column and by offset agree', async () => {
    const snap = await snapshotOf(f.mcp);
    const whole = await call(f.mcp, 'document-read', { path: 'src/money.ts' });
    const text = whole.value.text as string;
    const byLine = await call(f.mcp, 'document-read', { path: 'src/money.ts', expectedSnapshot: snap, range: { start: { line: 1, column: 0 }, end: { line: 1, column: 16 } } });
    const start = text.indexOf('\n') + 1;
    const byOffset = await call(f.mcp, 'document-read', { path: 'src/money.ts', expectedSnapshot: snap, range: { start: { offset: start }, end: { offset: start + 16 } } });
    assert.equal(byLine.value.text, 'export interface');
    assert.equal(byOffset.value.text, byLine.value.text);
    const noSnapshot = await call(f.mcp, 'document-read', { path: 'src/money.ts', range: { start: { offset: 0 }, end: { offset: 1 } } });
    assert.equal(noSnapshot.error.code, 'InvalidArguments');
  });

  test('find-symbols, find-references and diagnostics are bounded; limit 0 returns none', async () => {
    const symbols = await call(f.mcp, 'find-symbols', { query: 'money' });
    const items = symbols.value.items as Array<{ name: string; path: string; start: number }>;
    const decl = items.find((s) => s.name === 'money' && s.path === 'src/money.ts');
    assert.ok(decl, JSON.stringify(items));
    const none = await call(f.mcp, 'find-symbols', { query: 'money', limit: 0 });
    assert.deepEqual(none.value.items, []);
    assert.equal(none.value.hasMore, true);

    const snap = await snapshotOf(f.mcp);
    const refs = await call(f.mcp, 'find-references', { expectedSnapshot: snap, path: 'src/money.ts', position: { offset: decl.start }, limit: 2 });
    assert.equal((refs.value.items as unknown[]).length, 2);
    assert.equal(refs.value.hasMore, true);
    assert.ok((refs.value.totalCount as number) > 2);
    const all = await call(f.mcp, 'find-references', { expectedSnapshot: snap, path: 'src/money.ts', position: { offset: decl.start }, limit: null });
    assert.equal((all.value.items as unknown[]).length, refs.value.totalCount);
    assert.ok((all.value.items as Array<{ path: string }>).some((r) => r.path === 'src/cart.ts'));

    const clean = await call(f.mcp, 'diagnostics', {});
    assert.deepEqual(clean.value.items, [], JSON.stringify(clean.value.items));
    assert.equal(clean.value.hasMore, false);
  });

  test('server-status Summary and Full with an injected provider; recovery-status', async () => {
    f.host.provideStatus('pluginCatalogue', () => ({ plugins: 0, diagnostics: [] }));
    const summary = await call(f.mcp, 'server-status', {});
    assert.equal(summary.value.mode, 'transactional');
    assert.equal(summary.value.providers, undefined);
    const full = await call(f.mcp, 'server-status', { detail: 'Full' });
    assert.deepEqual((full.value.providers as Record<string, unknown>).pluginCatalogue, { plugins: 0, diagnostics: [] });
    assert.equal((full.value.recovery as { healthy: boolean }).healthy, true);
    const recovery = await call(f.mcp, 'recovery-status', {});
    assert.equal(recovery.isError, false, JSON.stringify(recovery.value));
  });

  test('staging outside compiler-validation reports the parse errors it adds, and still stages', async () => {
    const started = await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) });
    const staged = await call(f.mcp, 'stage-edits', { expectedSnapshot: started.value.snapshot, summary: 'typo', changes: [{ kind: 'create', path: 'src/typo.ts', content: 'export const = ;\n' }] });
    assert.equal(staged.isError, false, JSON.stringify(staged.value));
    const added = (staged.value.revision as { diagnosticsAdded: Array<{ path: string; category: string }> }).diagnosticsAdded;
    assert.ok(added.length > 0 && added.every((d) => d.path === 'src/typo.ts' && d.category === 'error'), JSON.stringify(added));
    await call(f.mcp, 'transaction-rollback', { expectedSnapshot: staged.value.snapshot });
  });

  test('the console rolls back through host.rollback and sees it in host.workspaces()', async () => {
    const started = await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) });
    await call(f.mcp, 'stage-edits', { expectedSnapshot: started.value.snapshot, summary: 'one', changes: [{ kind: 'create', path: 'src/r.ts', content: 'export {};\n' }] });
    const [before] = f.host.workspaces();
    assert.equal(before!.transaction?.revisions.length, 1);
    assert.equal(before!.transaction?.revisions[0]?.files[0]?.path, 'src/r.ts');
    const after = f.host.rollback(before!.workspaceId, 0);
    assert.equal(after.transaction?.revisions.length, 0);
    assert.equal((await call(f.mcp, 'document-read', { path: 'src/r.ts' })).error.code, 'DocumentNotFound');
    await call(f.mcp, 'transaction-rollback', { expectedSnapshot: await snapshotOf(f.mcp) });
    assert.equal(f.host.workspaces()[0]!.transaction, undefined);
  });

  test('workspace-reload moves an empty transaction onto the disk state', async () => {
    const started = await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) });
    await appendFile(join(f.root, 'src/cart.ts'), '// reloaded\n');
    const reloaded = await call(f.mcp, 'workspace-reload', {});
    const snap = (reloaded.value.workspace as { snapshot: { workspaceEpoch: number; transactionRevision: number } }).snapshot;
    assert.ok(snap.workspaceEpoch > (started.value.snapshot as { workspaceEpoch: number }).workspaceEpoch);
    assert.equal(snap.transactionRevision, 0);
    const read = await call(f.mcp, 'document-read', { path: 'src/cart.ts' });
    assert.ok((read.value.text as string).endsWith('// reloaded\n'));
    await call(f.mcp, 'transaction-rollback', { expectedSnapshot: snap });
  });

  test('a change on disk is detected, reloaded and bumps the epoch', async () => {
    const before = await snapshotOf(f.mcp);
    const updated = new Promise<number>((resolve) => {
      const off = f.host.events.on('workspace.updated', (e) => {
        if (e.workspace.epoch > (before.workspaceEpoch as number)) {
          off();
          resolve(e.workspace.epoch);
        }
      });
    });
    await appendFile(join(f.root, 'src/money.ts'), '// touched\n');
    assert.equal(await updated, (before.workspaceEpoch as number) + 1);
    const read = await call(f.mcp, 'document-read', { path: 'src/money.ts' });
    assert.ok((read.value.text as string).endsWith('// touched\n'));
    const after = await snapshotOf(f.mcp);
    assert.notEqual(after.snapshotId, before.snapshotId);
  });
});
