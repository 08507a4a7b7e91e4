import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch } from 'diff';
import { applyCandidate, Transaction } from '../../../src-main/host/transactions/index.js';
import { Snapshot } from '../../../src-main/host/workspace/index.js';

const base = (): Snapshot => Snapshot.fromTexts([['a.ts', 'const a = 1;\n'], ['b.ts', 'const b = 2;\n']]);
const tx = (): Transaction => new Transaction({ transactionId: 't1', workspaceId: 'w1', startedAt: 0, base: base() });

describe('candidate changes', () => {
  test('a batch applies in order; the base snapshot is untouched', () => {
    const b = base();
    const applied = applyCandidate(b, [
      { kind: 'create', path: 'c.ts', content: 'c' },
      { kind: 'rename', path: 'c.ts', newPath: 'd.ts' },
      { kind: 'edit', path: 'a.ts', edits: [{ range: { start: { offset: 6 }, end: { offset: 7 } }, newText: 'x' }] },
      { kind: 'delete', path: 'b.ts' },
    ]);
    assert.deepEqual(applied.snapshot.paths(), ['a.ts', 'd.ts']);
    assert.equal(applied.snapshot.get('a.ts')!.text, 'const x = 1;\n');
    assert.deepEqual(b.paths(), ['a.ts', 'b.ts']);
    assert.notEqual(applied.snapshot.snapshotId, b.snapshotId);
  });

  test('DocumentNotFound / DocumentExists stop the whole batch', () => {
    assert.throws(() => applyCandidate(base(), [{ kind: 'delete', path: 'zz.ts' }]), { code: 'DocumentNotFound' });
    assert.throws(() => applyCandidate(base(), [{ kind: 'rename', path: 'a.ts', newPath: 'b.ts' }]), { code: 'DocumentExists' });
    assert.throws(() => applyCandidate(base(), [{ kind: 'create', path: 'a.ts', content: '' }]), { code: 'DocumentExists' });
  });
});

describe('transaction revisions', () => {
  test('each revision keeps its own diff; preview is base → head; rollback is exact', () => {
    const t = tx();
    t.stage(applyCandidate(t.head(), [{ kind: 'replace', path: 'a.ts', content: 'const a = 10;\n' }]), 'one', 1);
    const r1 = t.head();
    t.stage(applyCandidate(t.head(), [{ kind: 'rename', path: 'b.ts', newPath: 'lib/b.ts' }]), 'two', 2);
    assert.equal(t.revision, 2);
    assert.deepEqual(t.history()[1]!.files.map((f) => [f.path, f.change, f.previousPath]), [['lib/b.ts', 'rename', 'b.ts']]);
    const preview = t.preview();
    assert.deepEqual(preview.map((f) => [f.path, f.change]), [['a.ts', 'modify'], ['lib/b.ts', 'rename']]);
    assert.equal(applyPatch('const a = 1;\n', preview[0]!.diff), 'const a = 10;\n');
    assert.deepEqual(t.fileChanges().map((c) => [c.kind, c.path]), [['write', 'a.ts'], ['delete', 'b.ts'], ['write', 'lib/b.ts']]);
    const hash2 = t.contentHash();
    t.rollbackTo(1);
    assert.equal(t.head(), r1);
    assert.notEqual(t.contentHash(), hash2);
    assert.throws(() => t.rollbackTo(5), { code: 'RevisionNotFound' });
    t.rollbackTo(0);
    assert.deepEqual(t.fileChanges(), []);
  });

  test('a committed or abandoned transaction refuses further staging', () => {
    const t = tx();
    t.markCommitted();
    assert.throws(() => t.stage(applyCandidate(t.head(), []), 'x', 0), { code: 'TransactionRequired' });
    assert.equal(t.view(100).state, 'committed');
  });

  test('rename back to the original path is a plain modify in the preview', () => {
    const t = tx();
    t.stage(applyCandidate(t.head(), [{ kind: 'rename', path: 'a.ts', newPath: 'z.ts' }]), 'away', 1);
    t.stage(applyCandidate(t.head(), [{ kind: 'rename', path: 'z.ts', newPath: 'a.ts' }, { kind: 'replace', path: 'a.ts', content: 'new\n' }]), 'back', 2);
    assert.deepEqual(t.preview().map((f) => [f.path, f.change]), [['a.ts', 'modify']]);
  });
});
