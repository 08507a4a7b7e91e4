import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createResolver, createSnapshotView } from '../../../../src-main/host/plugins/index.js';
import { isJunctionError } from '../../../../src-main/contracts/errors.js';

const identity = { workspaceId: 'w', workspaceEpoch: 1, snapshotId: 's', transactionRevision: 0 };
const doc = (path: string, text: string) => ({ path, text, sha256: createHash('sha256').update(text).digest('hex') });
const docs = new Map([['b.ts', doc('b.ts', 'x')], ['a.ts', doc('a.ts', 'one\r\ntwo\n😀three')]]);
const view = createSnapshotView(identity, { paths: () => [...docs.keys()], get: (p) => docs.get(p) });
const resolver = createResolver(view);

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return isJunctionError(error) ? error.code : 'other';
  }
  return 'none';
};

describe('snapshot view and resolver', () => {
  test('paths are sorted and the identity is frozen', () => {
    assert.deepEqual(view.paths(), ['a.ts', 'b.ts']);
    assert.ok(Object.isFrozen(view.identity));
  });

  test('offsets and line/columns are UTF-16 and agree both ways, across CRLF', () => {
    const afterEmoji = 'one\r\ntwo\n😀'.length;
    const loc = resolver.resolveOffset('a.ts', afterEmoji);
    assert.deepEqual([loc.line, loc.column], [2, 2]);
    assert.equal(resolver.resolveLineColumn('a.ts', 2, 2).offset, afterEmoji);
    assert.equal(resolver.resolveLineColumn('./a.ts', 1, 0).offset, 5);
    assert.equal(loc.snapshot, view.identity);
  });

  test('unknown documents and out-of-range positions are structured errors', () => {
    assert.equal(code(() => resolver.resolvePath('c.ts')), 'DocumentNotFound');
    assert.equal(code(() => resolver.resolveOffset('b.ts', 2)), 'RangeInvalid');
    assert.equal(code(() => resolver.resolveLineColumn('b.ts', 1, 0)), 'RangeInvalid');
    assert.equal(code(() => resolver.resolveLineColumn('a.ts', 0, 9)), 'RangeInvalid');
  });
});
