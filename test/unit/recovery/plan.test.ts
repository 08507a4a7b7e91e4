import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { buildManifest, planRecovery, tempPathFor, withPhase } from '../../../src-main/recovery/manifest/index.js';
import type { JournalManifest } from '../../../src-main/recovery/model.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const X = 'f'.repeat(64);

function manifest(phase: JournalManifest['phase']): JournalManifest {
  const built = buildManifest({
    manifestId: 'm1',
    transactionId: 't1',
    workspaceRoot: '/w',
    createdAt: 5,
    backupPathFor: (i) => `backups/m1/${i}`,
    changes: [
      { change: { kind: 'write', path: 'mod.txt', content: 'x', expectedBeforeSha256: A }, beforeSha256: A, afterSha256: B },
      { change: { kind: 'write', path: 'new/file.txt', content: 'y', expectedBeforeSha256: null }, beforeSha256: null, afterSha256: C },
      { change: { kind: 'delete', path: 'gone.txt', expectedBeforeSha256: B }, beforeSha256: B, afterSha256: null },
    ],
  });
  return withPhase(built, phase, 'pending');
}

describe('buildManifest', () => {
  test('records checksums, backups only for existing files, and temp files beside their targets', () => {
    const m = manifest('prepared');
    assert.deepEqual(
      m.files.map((f) => [f.path, f.operation, f.backupPath, f.tempPath]),
      [
        ['mod.txt', 'write', 'backups/m1/0', '.jx-m1-0.tmp'],
        ['new/file.txt', 'write', null, 'new/.jx-m1-1.tmp'],
        ['gone.txt', 'delete', 'backups/m1/2', '.jx-m1-2.tmp'],
      ],
    );
    assert.equal(tempPathFor('a/b/c.ts', 'id', 7), 'a/b/.jx-id-7.tmp');
  });
});

describe('planRecovery', () => {
  test('an incomplete transaction rolls back: applied files are restored or removed, untouched ones kept', () => {
    const plan = planRecovery(manifest('applying'), [B, C, null]);
    assert.deepEqual(plan, {
      kind: 'resolve',
      direction: 'back',
      steps: [
        { fileIndex: 0, action: 'restoreBackup', targetSha256: A },
        { fileIndex: 1, action: 'remove', targetSha256: null },
        { fileIndex: 2, action: 'restoreBackup', targetSha256: B },
      ],
    });
    const untouched = planRecovery(manifest('prepared'), [A, null, B]);
    assert.ok(untouched.kind === 'resolve' && untouched.steps.every((s) => s.action === 'keep'));
  });

  test('a mix of applied and untouched files still rolls back as one', () => {
    const plan = planRecovery(manifest('applying'), [B, null, B]);
    assert.ok(plan.kind === 'resolve');
    assert.deepEqual(plan.steps.map((s) => s.action), ['restoreBackup', 'keep', 'keep']);
  });

  test('a transaction with its completion marker rolls forward', () => {
    assert.deepEqual(planRecovery(manifest('completed'), [B, C, null]), {
      kind: 'resolve',
      direction: 'forward',
      steps: [
        { fileIndex: 0, action: 'keep', targetSha256: B },
        { fileIndex: 1, action: 'keep', targetSha256: C },
        { fileIndex: 2, action: 'keep', targetSha256: null },
      ],
    });
  });

  test('a file changed by someone else is a conflict, and nothing is planned', () => {
    const back = planRecovery(manifest('applying'), [X, C, null]);
    assert.deepEqual(back, { kind: 'conflict', direction: 'back', conflicts: [{ path: 'mod.txt', observedSha256: X, expected: [A, B] }] });
    const forward = planRecovery(manifest('completed'), [A, C, null]);
    assert.equal(forward.kind, 'conflict');
  });

  test('a rolled-back manifest left by an interrupted cleanup resolves with nothing to do', () => {
    const plan = planRecovery(manifest('rolledBack'), [A, null, B]);
    assert.ok(plan.kind === 'resolve' && plan.direction === 'back' && plan.steps.every((s) => s.action === 'keep'));
  });
});
