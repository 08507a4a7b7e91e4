import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { pathProblem, validateCommitRequest } from '../../../src-main/recovery/commit-request.js';
import { forEachBounded } from '../../../src-main/recovery/bounded-parallel.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';

const SHA = '0'.repeat(64);
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof JunctionError ? error.code : 'not a JunctionError';
  }
};

describe('commit request validation', () => {
  test('plain workspace-relative POSIX paths pass; anything else names its problem', () => {
    for (const ok of ['a', 'src/a.ts', '.hidden/x', 'a..b/c']) assert.equal(pathProblem(ok), null, ok);
    for (const bad of ['/abs', '../up', 'a/../b', 'a//b', './a', 'a/', 'a\\b', 'nul\0']) assert.notEqual(pathProblem(bad), null, bad);
  });

  test('shape errors are ValidationFailed; escaping paths are PathOutsideWorkspace', () => {
    const base = { transactionId: 't', workspaceRoot: '/w' };
    assert.equal(codeOf(() => validateCommitRequest({ ...base, changes: [] })), 'ValidationFailed');
    assert.equal(codeOf(() => validateCommitRequest({ ...base, changes: [{ kind: 'write', path: 'a', content: 1, expectedBeforeSha256: null }] })), 'ValidationFailed');
    assert.equal(codeOf(() => validateCommitRequest({ ...base, changes: [{ kind: 'delete', path: 'a', expectedBeforeSha256: null }] })), 'ValidationFailed');
    assert.equal(codeOf(() => validateCommitRequest({ ...base, changes: [{ kind: 'write', path: 'a', content: 'x', expectedBeforeSha256: SHA.toUpperCase().replace(/0/g, 'A') }] })), 'ValidationFailed');
    assert.equal(codeOf(() => validateCommitRequest({ ...base, workspaceRoot: 'relative', changes: [{ kind: 'write', path: 'a', content: 'x', expectedBeforeSha256: null }] })), 'ValidationFailed');
    assert.equal(codeOf(() => validateCommitRequest({ ...base, changes: [{ kind: 'write', path: '../a', content: 'x', expectedBeforeSha256: null }] })), 'PathOutsideWorkspace');
    const valid = { ...base, changes: [{ kind: 'write', path: 'a', content: new Uint8Array([1]), expectedBeforeSha256: SHA }, { kind: 'delete', path: 'b', expectedBeforeSha256: SHA }] };
    assert.equal(validateCommitRequest(valid).changes.length, 2);
  });
});

describe('forEachBounded', () => {
  test('visits every item once with at most `limit` in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachBounded([...Array(20).keys()], 3, async (item) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(item);
      inFlight--;
    });
    assert.deepEqual(seen.sort((a, b) => a - b), [...Array(20).keys()]);
    assert.equal(peak, 3);
  });

  test('a failing task rejects the whole run', async () => {
    await assert.rejects(forEachBounded([1, 2, 3], 2, async (item) => {
      if (item === 2) throw new Error('boom');
    }), /boom/);
  });
});
