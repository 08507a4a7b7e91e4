import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ReferenceStore } from '../../../../src-main/host/code-actions/reference-store.js';
import { matchExactlyOne } from '../../../../src-main/host/code-actions/match.js';
import { isJunctionError } from '../../../../src-main/contracts/errors.js';

const snapshot = { workspaceId: 'w', workspaceEpoch: 0, snapshotId: 's', transactionRevision: 0 };

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'none';
  } catch (error) {
    return isJunctionError(error) ? `${error.code}/${error.next?.kind}` : 'other';
  }
}

describe('action reference store', () => {
  test('references are opaque UUIDs bound to their snapshot', () => {
    const store = new ReferenceStore<string>();
    const id = store.add(snapshot, 'fix');
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(store.get(id).snapshot, snapshot);
    assert.equal(store.get(id).value, 'fix');
  });

  test('a reference expires after its lifetime, default five minutes', () => {
    let now = 0;
    const store = new ReferenceStore<string>({ now: () => now });
    assert.equal(store.lifetimeMs, 300_000);
    const id = store.add(snapshot, 'fix');
    now = 299_999;
    assert.equal(store.get(id).value, 'fix');
    now = 300_000;
    assert.equal(codeOf(() => store.get(id)), 'ActionExpired/resolveTargetAgain');
    assert.equal(store.size(), 0);
  });

  test('the least recently used reference is evicted at capacity', () => {
    const store = new ReferenceStore<number>({ capacity: 2 });
    const a = store.add(snapshot, 1);
    const b = store.add(snapshot, 2);
    store.get(a);
    const c = store.add(snapshot, 3);
    assert.equal(codeOf(() => store.get(b)), 'ActionExpired/resolveTargetAgain');
    assert.equal(store.get(a).value, 1);
    assert.equal(store.get(c).value, 3);
  });

  test('a consumed reference is gone', () => {
    const store = new ReferenceStore<number>();
    const id = store.add(snapshot, 1);
    store.consume(id);
    assert.equal(codeOf(() => store.get(id)), 'ActionExpired/resolveTargetAgain');
  });

  test('rejects a non-positive lifetime or capacity', () => {
    assert.throws(() => new ReferenceStore({ lifetimeMs: 0 }), RangeError);
    assert.throws(() => new ReferenceStore({ capacity: 0 }), RangeError);
  });
});

describe('re-discovery matching', () => {
  test('exactly one match is returned; none is ActionExpired; several is ActionAmbiguous', () => {
    assert.equal(matchExactlyOne('id', [1, 2, 3], (n) => n === 2), 2);
    assert.equal(codeOf(() => matchExactlyOne('id', [1, 2], (n) => n === 5)), 'ActionExpired/resolveTargetAgain');
    assert.equal(codeOf(() => matchExactlyOne('id', [2, 2], (n) => n === 2)), 'ActionAmbiguous/resolveTargetAgain');
  });
});
