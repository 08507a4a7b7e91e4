import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { call, snapshotOf, startHost, type HostFixture } from './fixtures.js';

type Next = { kind: string; tools: string[] };
function expectError(r: Awaited<ReturnType<typeof call>>, code: string, next?: Next): void {
  assert.equal(r.isError, true, `expected ${code}, got success ${JSON.stringify(r.value)}`);
  assert.equal(r.error.code, code, r.error.message);
  if (next) assert.deepEqual(r.error.next, next);
}

async function startTx(f: HostFixture): Promise<Record<string, unknown>> {
  const r = await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) });
  assert.equal(r.isError, false, JSON.stringify(r.value));
  return r.value.snapshot as Record<string, unknown>;
}

async function stage(f: HostFixture, expectedSnapshot: unknown, changes: unknown[]): Promise<Awaited<ReturnType<typeof call>>> {
  return call(f.mcp, 'stage-edits', { expectedSnapshot, summary: 'test', changes });
}

async function listTree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

describe('autonomous-trusted: bad input is refused with a structured error and nothing changes', () => {
  let f: HostFixture;
  let outside: string;
  before(async () => {
    f = await startHost('autonomous-trusted');
    outside = await mkdtemp(join(tmpdir(), 'junction-outside-'));
    await symlink(outside, join(f.root, 'escape'));
  });
  after(async () => {
    await f.cleanup();
    await rm(outside, { recursive: true, force: true });
  });

  test('TransactionRequired before a transaction is started', async () => {
    expectError(await stage(f, await snapshotOf(f.mcp), [{ kind: 'delete', path: 'src/main.ts' }]), 'TransactionRequired', { kind: 'startTransaction', tools: ['transaction-start'] });
  });

  test('SnapshotMismatch on a wrong or stale expectedSnapshot, before positions are read', async () => {
    const snap = await startTx(f);
    const wrong = { ...snap, snapshotId: '00000000-0000-4000-8000-000000000000' };
    const bogusRange = { start: { offset: 999999 }, end: { offset: 999999 } };
    expectError(await stage(f, wrong, [{ kind: 'edit', path: 'src/main.ts', edits: [{ range: bogusRange, newText: 'x' }] }]), 'SnapshotMismatch', { kind: 'refreshSnapshot', tools: ['workspace-status'] });
    const staged = await stage(f, snap, [{ kind: 'create', path: 'src/a.ts', content: 'export const a = 1;\n' }]);
    assert.equal(staged.isError, false);
    expectError(await stage(f, snap, [{ kind: 'create', path: 'src/b.ts', content: '' }]), 'SnapshotMismatch', { kind: 'refreshSnapshot', tools: ['workspace-status'] });
    expectError(await call(f.mcp, 'find-references', { expectedSnapshot: snap, path: 'src/main.ts', position: { offset: 0 } }), 'SnapshotMismatch');
  });

  test('TransactionActive when a second transaction is started', async () => {
    expectError(await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) }), 'TransactionActive', { kind: 'inspectStatus', tools: ['transaction-preview', 'transaction-rollback'] });
  });

  test('RangeInvalid outside the document, inside a surrogate pair, overlapping, or ending before its start', async () => {
    let snap = await snapshotOf(f.mcp);
    const created = await stage(f, snap, [{ kind: 'create', path: 'src/emoji.ts', content: 'export const e = "😀";\n' }]);
    snap = created.value.snapshot as Record<string, unknown>;
    const edit = (start: unknown, end: unknown, path = 'src/emoji.ts') => [{ kind: 'edit', path, edits: [{ range: { start, end }, newText: 'x' }] }];
    const next = { kind: 'fixArguments', tools: ['document-read'] };
    expectError(await stage(f, snap, edit({ offset: 0 }, { offset: 1000 })), 'RangeInvalid', next);
    expectError(await stage(f, snap, edit({ line: 5, column: 0 }, { line: 5, column: 0 })), 'RangeInvalid', next);
    expectError(await stage(f, snap, edit({ line: 0, column: 90 }, { line: 0, column: 90 })), 'RangeInvalid', next);
    const inPair = 'export const e = "'.length + 1;
    expectError(await stage(f, snap, edit({ offset: inPair }, { offset: inPair })), 'RangeInvalid', next);
    expectError(await stage(f, snap, edit({ offset: 5 }, { offset: 2 })), 'RangeInvalid', next);
    const overlapping = [{ kind: 'edit', path: 'src/emoji.ts', edits: [
      { range: { start: { offset: 0 }, end: { offset: 6 } }, newText: 'a' },
      { range: { start: { offset: 3 }, end: { offset: 8 } }, newText: 'b' },
    ] }];
    expectError(await stage(f, snap, overlapping), 'RangeInvalid', next);
    expectError(await call(f.mcp, 'document-read', { path: 'src/emoji.ts', expectedSnapshot: snap, range: { start: { offset: inPair }, end: { offset: inPair + 1 } } }), 'RangeInvalid');
    assert.deepEqual(await snapshotOf(f.mcp), snap, 'a refused staging leaves the snapshot as it was');
  });

  test('PathOutsideWorkspace for .., absolute paths and symlinks leading out', async () => {
    const snap = await snapshotOf(f.mcp);
    const next = { kind: 'fixArguments', tools: ['stage-edits'] };
    for (const path of ['../evil.ts', 'src/../../evil.ts', '/etc/evil.ts', 'C:/evil.ts', 'escape/evil.ts']) {
      expectError(await stage(f, snap, [{ kind: 'create', path, content: 'x' }]), 'PathOutsideWorkspace', next);
    }
    expectError(await stage(f, snap, [{ kind: 'rename', path: 'src/main.ts', newPath: 'escape/main.ts' }]), 'PathOutsideWorkspace', next);
    expectError(await call(f.mcp, 'document-read', { path: '../x.ts' }), 'PathOutsideWorkspace', { kind: 'fixArguments', tools: ['document-read'] });
    assert.deepEqual(await readdir(outside), []);
  });

  test('DocumentNotFound and DocumentExists', async () => {
    const snap = await snapshotOf(f.mcp);
    expectError(await stage(f, snap, [{ kind: 'delete', path: 'src/nope.ts' }]), 'DocumentNotFound', { kind: 'refreshSnapshot', tools: ['workspace-status'] });
    expectError(await stage(f, snap, [{ kind: 'create', path: 'src/main.ts', content: '' }]), 'DocumentExists', { kind: 'fixArguments', tools: ['stage-edits'] });
    expectError(await call(f.mcp, 'document-read', { path: 'src/nope.ts' }), 'DocumentNotFound');
  });

  test('RevisionNotFound for a rollback beyond the head', async () => {
    expectError(await call(f.mcp, 'transaction-rollback', { expectedSnapshot: await snapshotOf(f.mcp), toRevision: 99 }), 'RevisionNotFound', { kind: 'inspectStatus', tools: ['transaction-preview'] });
  });

  test('InvalidArguments names the tool to call again and the allowed values; ToolNotFound is JSON-RPC -32602', async () => {
    expectError(await call(f.mcp, 'find-symbols', { query: 'x', limit: -1 }), 'InvalidArguments', { kind: 'fixArguments', tools: ['find-symbols'] });
    const badEnum = await call(f.mcp, 'server-status', { detail: 'Everything' });
    expectError(badEnum, 'InvalidArguments', { kind: 'fixArguments', tools: ['server-status'] });
    assert.match(badEnum.error.message, /detail: .*"Summary"\|"Full"/);
    const missing = await f.mcp.client.callTool({ name: 'transaction-review', arguments: {} }).then(
      () => assert.fail('an unpublished tool must not produce a result'),
      (error: unknown) => error as McpError,
    );
    assert.equal(missing.code, -32602);
    assert.deepEqual((missing.data as { code: string; next: unknown }).next, { kind: 'inspectStatus', tools: ['server-status'] });
    assert.equal((missing.data as { code: string }).code, 'ToolNotFound');
  });

  test('ConflictOnDisk when a file changed underneath: nothing is written', async () => {
    await call(f.mcp, 'transaction-rollback', { expectedSnapshot: await snapshotOf(f.mcp) });
    const snap = await startTx(f);
    const staged = await stage(f, snap, [
      { kind: 'replace', path: 'src/discount.ts', content: 'export const changed = true;\n' },
      { kind: 'create', path: 'src/new.ts', content: 'export {};\n' },
    ]);
    await writeFile(join(f.root, 'src/discount.ts'), '// edited by someone else\n');
    const before = await listTree(f.root);
    expectError(await call(f.mcp, 'transaction-commit', { expectedSnapshot: staged.value.snapshot }), 'ConflictOnDisk', { kind: 'refreshSnapshot', tools: ['workspace-reload'] });
    assert.equal(await readFile(join(f.root, 'src/discount.ts'), 'utf8'), '// edited by someone else\n');
    assert.deepEqual(await listTree(f.root), before);
  });

  test('rollback to a revision is exact and the commit writes that revision', async () => {
    await call(f.mcp, 'transaction-rollback', { expectedSnapshot: await snapshotOf(f.mcp) });
    await call(f.mcp, 'workspace-reload');
    let snap = await startTx(f);
    const original = await readFile(join(f.root, 'src/catalog.ts'), 'utf8');
    const r1 = await stage(f, snap, [{ kind: 'replace', path: 'src/catalog.ts', content: `${original}// one\n` }]);
    const r2 = await stage(f, r1.value.snapshot, [{ kind: 'replace', path: 'src/catalog.ts', content: `${original}// two\n` }, { kind: 'delete', path: 'src/discount.ts' }]);
    const rolled = await call(f.mcp, 'transaction-rollback', { expectedSnapshot: r2.value.snapshot, toRevision: 1 });
    snap = rolled.value.snapshot as Record<string, unknown>;
    assert.equal(snap.transactionRevision, 1);
    const read = await call(f.mcp, 'document-read', { path: 'src/catalog.ts' });
    assert.equal(read.value.text, `${original}// one\n`);
    const committed = await call(f.mcp, 'transaction-commit', { expectedSnapshot: snap });
    assert.equal(committed.isError, false, JSON.stringify(committed.value));
    assert.equal(await readFile(join(f.root, 'src/catalog.ts'), 'utf8'), `${original}// one\n`);
    assert.ok((await readdir(join(f.root, 'src'))).includes('discount.ts'));
  });

  test('concurrent commits: one wins, the other gets ConcurrentCommit', async () => {
    const snap = await startTx(f);
    const staged = await stage(f, snap, [{ kind: 'create', path: 'src/c.ts', content: 'export const c = 1;\n' }]);
    const expectedSnapshot = staged.value.snapshot;
    const [first, second] = await Promise.all([call(f.mcp, 'transaction-commit', { expectedSnapshot }), call(f.mcp, 'transaction-commit', { expectedSnapshot })]);
    assert.equal(first.isError, false, JSON.stringify(first.value));
    expectError(second, 'ConcurrentCommit', { kind: 'retryLater', tools: ['workspace-status'] });
    assert.equal(await readFile(join(f.root, 'src/c.ts'), 'utf8'), 'export const c = 1;\n');
  });
});

describe('workspace selection and trust', () => {
  let f: HostFixture;
  before(async () => {
    f = await startHost('transactional', { trusted: false });
  });
  after(async () => f.cleanup());

  test('WorkspaceNotTrusted until the operator trusts the workspace', async () => {
    expectError(await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) }), 'WorkspaceNotTrusted', { kind: 'inspectStatus', tools: ['workspace-status'] });
    await f.host.openWorkspace(f.root, { trusted: true });
    const started = await call(f.mcp, 'transaction-start', { expectedSnapshot: await snapshotOf(f.mcp) });
    assert.equal(started.isError, false);
  });

  test('ReviewRequired in transactional mode until the exact revision was previewed', async () => {
    const snap = await snapshotOf(f.mcp);
    const staged = await stage(f, snap, [{ kind: 'create', path: 'src/p.ts', content: 'export {};\n' }]);
    expectError(await call(f.mcp, 'transaction-commit', { expectedSnapshot: staged.value.snapshot }), 'ReviewRequired', { kind: 'requestReview', tools: ['transaction-preview'] });
    await call(f.mcp, 'transaction-preview', {});
    const committed = await call(f.mcp, 'transaction-commit', { expectedSnapshot: staged.value.snapshot });
    assert.equal(committed.isError, false, JSON.stringify(committed.value));
  });

  test('WorkspaceSelectorRequired with two workspaces, WorkspaceNotFound for an unknown selector', async () => {
    const second = join(f.dir, 'second');
    await mkdir(second);
    await writeFile(join(second, 'index.js'), 'export const x = 1;\n');
    await f.host.openWorkspace(second, { trusted: false });
    expectError(await call(f.mcp, 'document-read', { path: 'src/main.ts' }), 'WorkspaceSelectorRequired', { kind: 'inspectStatus', tools: ['workspace-status'] });
    const listed = await call(f.mcp, 'workspace-status');
    assert.equal((listed.value.items as unknown[]).length, 2);
    const read = await call(f.mcp, 'document-read', { workspace: 'second', path: 'index.js' });
    assert.equal(read.value.text, 'export const x = 1;\n');
    expectError(await call(f.mcp, 'document-read', { workspace: 'nope', path: 'index.js' }), 'WorkspaceNotFound', { kind: 'inspectStatus', tools: ['workspace-status'] });
    expectError(await call(f.mcp, 'workspace-open', { root: join(f.dir, 'missing') }), 'WorkspaceNotFound', { kind: 'fixArguments', tools: ['workspace-open'] });
  });
});
