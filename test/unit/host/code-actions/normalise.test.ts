import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type ts from 'typescript';
import { applyTsTextChanges, normaliseFileChanges, workspacePathOf } from '../../../../src-main/host/code-actions/normalise.js';
import { mergeBatches } from '../../../../src-main/host/code-actions/fix-all.js';
import { Snapshot } from '../../../../src-main/host/workspace/index.js';

const change = (start: number, length: number, newText: string): ts.TextChange => ({ span: { start, length }, newText });
const root = '/ws';
const snapshot = Snapshot.fromTexts([['a.ts', 'const a = 1;\n'], ['b.ts', 'let b;\n']]);

describe('normalising language-service changes', () => {
  test('text changes apply in offset order regardless of input order; overlaps are refused', () => {
    assert.equal(applyTsTextChanges('abcdef', [change(4, 1, 'E'), change(0, 1, 'A')]), 'AbcdEf');
    assert.equal(applyTsTextChanges('abc', [change(1, 0, 'X'), change(1, 1, 'Y')]), 'aXYc');
    assert.equal(applyTsTextChanges('abcdef', [change(0, 3, ''), change(2, 2, 'z')]), undefined);
  });

  test('workspace paths exclude the outside and node_modules', () => {
    assert.equal(workspacePathOf(root, '/ws/src/a.ts'), 'src/a.ts');
    assert.equal(workspacePathOf(root, '/other/a.ts'), undefined);
    assert.equal(workspacePathOf(root, '/ws/node_modules/x/index.d.ts'), undefined);
  });

  test('the normalised record is order-independent and its checksum tracks content', () => {
    const one = normaliseFileChanges(root, snapshot, [
      { fileName: '/ws/b.ts', textChanges: [change(4, 1, 'b = 2')] },
      { fileName: '/ws/a.ts', textChanges: [change(10, 1, '2')] },
    ]);
    const two = normaliseFileChanges(root, snapshot, [
      { fileName: '/ws/a.ts', textChanges: [change(10, 1, '2')] },
      { fileName: '/ws/b.ts', textChanges: [change(4, 1, 'b = 2')] },
    ]);
    assert.ok('ok' in one && 'ok' in two);
    assert.equal(one.ok.checksum, two.ok.checksum);
    assert.deepEqual(one.ok.changes, [
      { kind: 'replace', path: 'a.ts', content: 'const a = 2;\n' },
      { kind: 'replace', path: 'b.ts', content: 'let b = 2;\n' },
    ]);
    const other = normaliseFileChanges(root, snapshot, [{ fileName: '/ws/a.ts', textChanges: [change(10, 1, '3')] }]);
    assert.ok('ok' in other);
    assert.notEqual(other.ok.checksum, one.ok.checksum);
  });

  test('new files become creates; effects outside the sources are excluded', () => {
    const created = normaliseFileChanges(root, snapshot, [{ fileName: '/ws/c.ts', isNewFile: true, textChanges: [change(0, 0, 'export {};\n')] }]);
    assert.ok('ok' in created);
    assert.deepEqual(created.ok.changes, [{ kind: 'create', path: 'c.ts', content: 'export {};\n' }]);
    const outside = normaliseFileChanges(root, snapshot, [{ fileName: '/ws/node_modules/x.d.ts', textChanges: [change(0, 0, 'x')] }]);
    assert.deepEqual('excluded' in outside && outside.excluded, 'nonSourceEffect');
  });

  test('fix-all batches that overlap an accepted batch are left out whole; identical edits merge', () => {
    const merged = mergeBatches([
      [{ fileName: '/ws/a.ts', textChanges: [change(0, 5, 'let')] }],
      [{ fileName: '/ws/a.ts', textChanges: [change(0, 5, 'let'), change(10, 1, '2')] }],
      [
        { fileName: '/ws/a.ts', textChanges: [change(2, 2, 'zz')] },
        { fileName: '/ws/b.ts', textChanges: [change(0, 3, 'var')] },
      ],
    ]);
    assert.deepEqual(merged, [{ fileName: '/ws/a.ts', isNewFile: false, textChanges: [change(0, 5, 'let'), change(10, 1, '2')] }]);
  });
});
