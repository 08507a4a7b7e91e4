import { describe, test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startCodeActionHost, type CodeActionHost, type Structured } from './support/code-action-host.js';

interface Action {
  actionId: string;
  title: string;
  kind: string;
  refactorKind?: string;
  location: { path: string; start: number; length: number; line: number; column: number };
  diagnostics?: Array<{ id: string; message: string }>;
  fixAllScopes?: string[];
}

type Actions = { items: Action[]; hasMore: boolean };

async function list(h: CodeActionHost, args: Record<string, unknown>): Promise<Actions> {
  const { isError, value } = await h.call('list-code-actions', { expectedSnapshot: h.identity(), ...args });
  assert.equal(isError, false, JSON.stringify(value));
  return value.actions as Actions;
}

async function startTransaction(h: CodeActionHost): Promise<void> {
  const { isError, value } = await h.call('transaction-start', { expectedSnapshot: h.identity() });
  assert.equal(isError, false, JSON.stringify(value));
}

async function stage(h: CodeActionHost, actionId: string): Promise<Structured> {
  const { isError, value } = await h.call('stage-code-action', { actionId, expectedSnapshot: h.identity() });
  assert.equal(isError, false, JSON.stringify(value));
  return value;
}

function errorOf(result: { isError: boolean; value: Structured }): NonNullable<Structured['error']> {
  assert.equal(result.isError, true, JSON.stringify(result.value));
  return result.value.error!;
}

function byTitle(actions: Actions, title: string | RegExp): Action {
  const found = actions.items.find((a) => (typeof title === 'string' ? a.title === title : title.test(a.title)));
  assert.ok(found, `no action ${String(title)} in ${JSON.stringify(actions.items.map((a) => a.title))}`);
  return found;
}

describe('code actions through an MCP client', () => {
  let h: CodeActionHost;
  beforeEach(async () => {
    h = await startCodeActionHost();
  });
  const closeHost = async () => h.close();

  test('tools/list publishes the three tools with bounded, snapshot-bound inputs', async (t) => {
    t.after(closeHost);
    const { tools } = await h.harness.client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ['list-code-actions', 'prepare-fix-all', 'stage-code-action']) assert.ok(names.includes(name), name);
    const listTool = tools.find((tool) => tool.name === 'list-code-actions')!;
    const props = listTool.inputSchema.properties as Record<string, { default?: unknown }>;
    assert.equal(props.limit!.default, 50);
    assert.deepEqual([...listTool.inputSchema.required!].sort(), ['document', 'expectedSnapshot', 'kinds']);
  });

  test('fixes an unused import and consumes the reference', async (t) => {
    t.after(closeHost);
    const actions = await list(h, { document: { path: 'src/unused-import.ts' }, kinds: 'CodeFixes', diagnosticIds: ['TS6133'] });
    const action = byTitle(actions, "Remove unused declaration for: 'other'");
    assert.deepEqual(action.diagnostics!.map((d) => d.id), ['TS6133']);
    assert.deepEqual([action.location.line, action.location.column], [0, 17]);
    await startTransaction(h);
    const staged = await stage(h, action.actionId);
    assert.equal((staged.revision as { revision: number }).revision, 1);
    assert.equal(h.text('src/unused-import.ts'), "import { helper } from './util';\n\nexport const value = helper();\n");
    const again = errorOf(await h.call('stage-code-action', { actionId: action.actionId, expectedSnapshot: h.identity() }));
    assert.equal(again.code, 'ActionExpired');
    assert.equal(again.next!.kind, 'resolveTargetAgain');
  });

  test('provenance is opt-in: response-local provider keys into one deduplicated providers object', async (t) => {
    t.after(closeHost);
    const plain = await h.call('list-code-actions', { document: { path: 'src/unused-many.ts' }, kinds: 'CodeFixes', expectedSnapshot: h.identity() });
    assert.equal(plain.value.providers, undefined);
    assert.ok((plain.value.actions as Actions).items.every((a) => !('providerId' in a)));
    const traced = await h.call('list-code-actions', { document: { path: 'src/unused-many.ts' }, kinds: 'CodeFixes', includeProvenance: true, expectedSnapshot: h.identity() });
    const items = (traced.value.actions as { items: Array<Action & { providerId: string }> }).items;
    const providers = traced.value.providers as Record<string, { name: string; package: string; version: string }>;
    assert.ok(items.length > 1);
    assert.ok(items.every((a) => providers[a.providerId] !== undefined), 'every providerId resolves');
    assert.equal(Object.keys(providers).length, new Set(items.map((a) => a.providerId)).size, 'providers are deduplicated');
    const first = providers[items[0]!.providerId]!;
    assert.equal(first.package, 'typescript');
    assert.match(first.version, /^\d+\.\d+/);
    assert.equal(first.name, 'unusedIdentifier');
  });

  test('adds a missing await found at a caret', async (t) => {
    t.after(closeHost);
    const text = h.text('src/missing-await.ts')!;
    const caret = text.indexOf('load()') + 2;
    const actions = await list(h, { document: { path: 'src/missing-await.ts' }, kinds: 'CodeFixes', range: { start: { offset: caret }, end: { offset: caret } } });
    const action = byTitle(actions, "Add 'await'");
    await startTransaction(h);
    await stage(h, action.actionId);
    assert.match(h.text('src/missing-await.ts')!, /await load\(\)/);
  });

  test('infers a parameter type for an implicit any, addressed by line and column', async (t) => {
    t.after(closeHost);
    const actions = await list(h, { document: { path: 'src/implicit-any.ts' }, kinds: 'CodeFixes', range: { start: { line: 0, column: 23 }, end: { line: 0, column: 24 } } });
    const action = byTitle(actions, 'Infer parameter types from usage');
    await startTransaction(h);
    await stage(h, action.actionId);
    assert.match(h.text('src/implicit-any.ts')!, /double\(x: number\)/);
  });

  test('converts a concatenation to a template string (a refactoring over a selection)', async (t) => {
    t.after(closeHost);
    const text = h.text('src/template.ts')!;
    const start = text.indexOf("'Hello");
    const end = text.indexOf("'!'") + 3;
    const actions = await list(h, { document: { path: 'src/template.ts' }, kinds: 'Refactorings', range: { start: { offset: start }, end: { offset: end } } });
    const action = byTitle(actions, 'Convert to template string');
    assert.equal(action.kind, 'refactoring');
    assert.equal(action.refactorKind, 'refactor.rewrite.string');
    assert.ok(actions.items.some((a) => a.refactorKind === 'refactor.extract.function'), 'extract function is offered too');
    await startTransaction(h);
    await stage(h, action.actionId);
    assert.match(h.text('src/template.ts')!, /return `Hello, \$\{name\}!`;/);
  });

  test('limit bounds discovery: zero returns none with hasMore, one returns one', async (t) => {
    t.after(closeHost);
    assert.deepEqual(await list(h, { document: { path: 'src/unused-many.ts' }, kinds: 'Both', limit: 0 }), { items: [], hasMore: true });
    const one = await list(h, { document: { path: 'src/unused-many.ts' }, kinds: 'CodeFixes', limit: 1 });
    assert.equal(one.items.length, 1);
    assert.equal(one.hasMore, true);
    assert.deepEqual(await list(h, { document: { path: 'src/clean.ts' }, kinds: 'CodeFixes' }), { items: [], hasMore: false });
  });

  test('fix-all at document scope: prepare, then stage the prepared reference', async (t) => {
    t.after(closeHost);
    const actions = await list(h, { document: { path: 'src/unused-many.ts' }, kinds: 'CodeFixes' });
    const origin = actions.items.find((a) => a.fixAllScopes?.includes('Document'))!;
    assert.ok(origin, 'a fix-all capable action');
    const prepared = await h.call('prepare-fix-all', { actionId: origin.actionId, scope: 'Document', expectedSnapshot: h.identity() });
    assert.equal(prepared.isError, false, JSON.stringify(prepared.value));
    assert.equal(prepared.value.changeCount, 2);
    assert.deepEqual(prepared.value.affectedDocuments, { items: [{ path: 'src/unused-many.ts', change: 'modify', edits: 2 }], hasMore: false, totalCount: 1 });
    assert.notEqual(prepared.value.actionId, origin.actionId);
    assert.equal(h.text('src/unused-many.ts')!.includes('other'), true, 'preparing changes nothing');
    await startTransaction(h);
    await stage(h, prepared.value.actionId as string);
    assert.equal(h.text('src/unused-many.ts'), "import { helper } from './util';\n\nexport const total = helper();\n");
  });

  test('fix-all at project scope aggregates over files and enforces maxChanges', async (t) => {
    t.after(closeHost);
    const actions = await list(h, { document: { path: 'src/unused-many.ts' }, kinds: 'CodeFixes' });
    const origin = actions.items.find((a) => a.fixAllScopes?.includes('Project'))!;
    assert.deepEqual(origin.fixAllScopes, ['Document', 'Project', 'Solution']);
    const solution = await h.call('prepare-fix-all', { actionId: origin.actionId, scope: 'Solution', maxChanges: 6, expectedSnapshot: h.identity() });
    assert.equal(solution.value.scope, 'Solution', 'a workspace is one program: Solution covers the same files as Project');
    assert.equal(solution.value.changeCount, 6);
    const tooMany = errorOf(await h.call('prepare-fix-all', { actionId: origin.actionId, scope: 'Project', maxChanges: 3, expectedSnapshot: h.identity() }));
    assert.equal(tooMany.code, 'ChangeLimitExceeded');
    const prepared = await h.call('prepare-fix-all', { actionId: origin.actionId, scope: 'Project', maxChanges: 6, affectedDocumentsLimit: 2, expectedSnapshot: h.identity() });
    assert.equal(prepared.isError, false, JSON.stringify(prepared.value));
    assert.equal(prepared.value.changeCount, 6);
    const docs = prepared.value.affectedDocuments as { items: Array<{ path: string }>; hasMore: boolean; totalCount: number };
    assert.deepEqual([docs.items.map((d) => d.path), docs.hasMore, docs.totalCount], [['src/unused-import.ts', 'src/unused-many.ts'], true, 3]);
    await startTransaction(h);
    await stage(h, prepared.value.actionId as string);
    assert.equal(h.text('src/unused-more.ts'), '\nexport const nothing = 0;\n');
    assert.equal(h.text('src/unused-import.ts'), "import { helper } from './util';\n\nexport const value = helper();\n");
  });

  test('a stale expectedSnapshot is rejected before the range is interpreted', async (t) => {
    t.after(closeHost);
    const stale = { ...h.identity(), snapshotId: '00000000-0000-4000-8000-000000000000' };
    const error = errorOf(await h.call('list-code-actions', { document: { path: 'src/template.ts' }, kinds: 'Both', range: { start: { offset: 99999 }, end: { offset: 99999 } }, expectedSnapshot: stale }));
    assert.equal(error.code, 'SnapshotMismatch');
  });

  test('reference failures: unknown, bound to an older snapshot, no transaction, no fix-all', async (t) => {
    t.after(closeHost);
    const unknown = errorOf(await h.call('stage-code-action', { actionId: '5f0c3c2e-0000-4000-8000-000000000000', expectedSnapshot: h.identity() }));
    assert.deepEqual([unknown.code, unknown.next!.kind], ['ActionExpired', 'resolveTargetAgain']);

    const many = await list(h, { document: { path: 'src/unused-many.ts' }, kinds: 'CodeFixes' });
    const template = await list(h, { document: { path: 'src/implicit-any.ts' }, kinds: 'CodeFixes' });
    const noTx = errorOf(await h.call('stage-code-action', { actionId: many.items[0]!.actionId, expectedSnapshot: h.identity() }));
    assert.equal(noTx.code, 'TransactionRequired');

    const noFixAll = errorOf(await h.call('prepare-fix-all', { actionId: template.items[0]!.actionId, scope: 'Document', expectedSnapshot: h.identity() }));
    assert.equal(noFixAll.code, 'InvalidArguments');

    await startTransaction(h);
    await stage(h, many.items[0]!.actionId);
    const moved = errorOf(await h.call('stage-code-action', { actionId: template.items[0]!.actionId, expectedSnapshot: h.identity() }));
    assert.deepEqual([moved.code, moved.next!.kind, moved.next!.tools], ['SnapshotMismatch', 'resolveTargetAgain', ['list-code-actions']]);
  });
});

describe('code action references over time and under a changing provider', () => {
  let clock = 0;
  let duplicateFixes = false;
  let alterCombined = false;
  let h: CodeActionHost;

  before(async () => {
    h = await startCodeActionHost({
      now: () => clock,
      referenceLifetimeMs: 1000,
      languageService: (workspace, snapshot) => {
        const ls = workspace.languageService(snapshot);
        // Same snapshot, different provider output: the only way a deterministic service can change its mind.
        return new Proxy(ls, {
          get(target, key, receiver) {
            if (key === 'getCodeFixesAtPosition' && duplicateFixes) return (...args: Parameters<typeof ls.getCodeFixesAtPosition>) => { const fixes = target.getCodeFixesAtPosition(...args); return [...fixes, ...fixes]; };
            if (key === 'getCombinedCodeFix' && alterCombined) {
              return (...args: Parameters<typeof ls.getCombinedCodeFix>) => {
                const combined = target.getCombinedCodeFix(...args);
                return { ...combined, changes: combined.changes.map((c) => ({ ...c, textChanges: c.textChanges.map((tc) => ({ ...tc, newText: `${tc.newText}/* changed */` })) })) };
              };
            }
            return Reflect.get(target, key, receiver) as unknown;
          },
        });
      },
    });
    await startTransaction(h);
  });
  after(async () => h.close());

  test('a reference past its lifetime is ActionExpired', async () => {
    const actions = await list(h, { document: { path: 'src/implicit-any.ts' }, kinds: 'CodeFixes' });
    clock += 1000;
    const error = errorOf(await h.call('stage-code-action', { actionId: actions.items[0]!.actionId, expectedSnapshot: h.identity() }));
    assert.deepEqual([error.code, error.next!.kind], ['ActionExpired', 'resolveTargetAgain']);
  });

  test('a reference that now matches two actions is ActionAmbiguous', async () => {
    const actions = await list(h, { document: { path: 'src/implicit-any.ts' }, kinds: 'CodeFixes' });
    duplicateFixes = true;
    try {
      const error = errorOf(await h.call('stage-code-action', { actionId: actions.items[0]!.actionId, expectedSnapshot: h.identity() }));
      assert.deepEqual([error.code, error.next!.kind], ['ActionAmbiguous', 'resolveTargetAgain']);
    } finally {
      duplicateFixes = false;
    }
  });

  test('a prepared fix-all whose operation changed is MutationCandidateChanged and is consumed', async () => {
    const actions = await list(h, { document: { path: 'src/unused-more.ts' }, kinds: 'CodeFixes' });
    const prepared = await h.call('prepare-fix-all', { actionId: actions.items[0]!.actionId, scope: 'Document', expectedSnapshot: h.identity() });
    assert.equal(prepared.isError, false, JSON.stringify(prepared.value));
    alterCombined = true;
    try {
      const changed = errorOf(await h.call('stage-code-action', { actionId: prepared.value.actionId, expectedSnapshot: h.identity() }));
      assert.deepEqual([changed.code, changed.next!.kind], ['MutationCandidateChanged', 'resolveTargetAgain']);
    } finally {
      alterCombined = false;
    }
    const consumed = errorOf(await h.call('stage-code-action', { actionId: prepared.value.actionId, expectedSnapshot: h.identity() }));
    assert.equal(consumed.code, 'ActionExpired');
    assert.ok(h.text('src/unused-more.ts')!.includes('other'), 'nothing was staged');
  });

  test('interactive refactorings are excluded and reported in the status', async () => {
    const text = h.text('src/template.ts')!;
    await list(h, { document: { path: 'src/template.ts' }, kinds: 'Refactorings', range: { start: { offset: 0 }, end: { offset: text.length } } });
    const status = h.codeActions.status();
    assert.equal(status.referenceLifetimeMs, 1000);
    assert.ok(status.exclusions.byReason.interactive >= 1, JSON.stringify(status.exclusions));
    assert.ok(status.exclusions.recent.some((e) => e.reason === 'interactive' && e.path === 'src/template.ts'));
  });
});

test('inspection-only mode publishes discovery but not staging', async () => {
  const h = await startCodeActionHost({ mode: 'inspection-only' });
  try {
    const names = (await h.harness.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('list-code-actions') && names.includes('prepare-fix-all'));
    assert.equal(names.includes('stage-code-action'), false);
  } finally {
    await h.close();
  }
});
