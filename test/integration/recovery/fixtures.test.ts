/** The frozen format-1 fixtures must recover the same way in every later 1.x host. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createJournal, type RecoveryReport } from '../../../src-main/recovery/index.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';
import { copyFixture, hashTree, readTree, type Sandbox } from './helpers.js';

const OLD = {
  'README.md': '# Fixture\n\nVersion 1.\n',
  'src/app.ts': 'export const version = 1;\n',
  'src/obsolete.ts': 'export const obsolete = true;\n',
  'src/untouched.ts': 'export {};\n',
};
const NEW = {
  'README.md': '# Fixture\n\nVersion 2.\n',
  'src/app.ts': 'export const version = 2;\n',
  'src/new-module.ts': 'export const added = true;\n',
  'src/untouched.ts': 'export {};\n',
};

/** The fixtures' writer crashed holding its lock, so every report starts with the takeover entry. */
function manifestEntries(report: RecoveryReport) {
  assert.equal(report.entries[0]?.outcome, 'clean');
  assert.match(report.entries[0]?.detail ?? '', /stale lock of instance fixture-writer \(pid 2147483647\)/);
  return report.entries.slice(1);
}

async function recoverFixture(name: string, check: (ctx: { box: Sandbox; report: RecoveryReport }) => Promise<void>): Promise<void> {
  const box = await copyFixture(name);
  const journal = createJournal({ stateDir: box.stateDir, instanceId: 'fixture-reader' });
  try {
    const report = await journal.open();
    await check({ box, report });
  } finally {
    await journal.close();
    await box.cleanup();
  }
}

async function assertClean(box: Sandbox): Promise<void> {
  assert.deepEqual(await readdir(join(box.stateDir, 'manifests')), []);
  assert.deepEqual(await readdir(join(box.stateDir, 'backups')), []);
}

describe('format 1 fixtures', () => {
  test('interrupted mid-apply: rolled back to all-old, the staged temp file removed', () =>
    recoverFixture('v1/interrupted-mid-apply', async ({ box, report }) => {
      assert.equal(report.healthy, true);
      const entries = manifestEntries(report);
      assert.equal(entries.length, 1);
      const [entry] = entries;
      assert.equal(entry?.outcome, 'reverted');
      assert.equal(entry?.formatVersion, 1);
      assert.equal(entry?.transactionId, 'fixture-after-file:2');
      assert.equal(entry?.workspaceRoot, box.workspace);
      assert.equal(entry?.files, 4);
      assert.match(entry?.detail ?? '', /2 of 4 files had been applied/);
      assert.deepEqual(await readTree(box.workspace), OLD);
      await assertClean(box);
    }));

  test('prepared only: reverted with nothing to restore', () =>
    recoverFixture('v1/prepared-only', async ({ box, report }) => {
      const entries = manifestEntries(report);
      assert.deepEqual(entries.map((e) => e.outcome), ['reverted']);
      assert.match(entries[0]?.detail ?? '', /0 restored, 0 removed, 4 already old/);
      assert.deepEqual(await readTree(box.workspace), OLD);
      await assertClean(box);
    }));

  test('completed: rolled forward to all-new, backups discarded', () =>
    recoverFixture('v1/completed', async ({ box, report }) => {
      assert.deepEqual(manifestEntries(report).map((e) => e.outcome), ['completed']);
      assert.deepEqual(await readTree(box.workspace), NEW);
      await assertClean(box);
    }));

  test('format 99: reported unsupported, every byte kept, its workspace blocked', async () => {
    const box = await copyFixture('v1/unsupported-format-99');
    const stateBefore = await hashTree(box.stateDir);
    const workspaceBefore = await hashTree(box.workspace);
    const journal = createJournal({ stateDir: box.stateDir, instanceId: 'fixture-reader' });
    try {
      const report = await journal.open();
      assert.equal(report.healthy, false);
      assert.deepEqual(report.entries.map((e) => [e.outcome, e.formatVersion]), [['unsupported', 99]]);
      assert.match(report.guidance ?? '', /newer compatible Junction/);
      assert.deepEqual(journal.blockedWorkspaces().map((b) => [b.workspaceRoot, b.code]), [[box.workspace, 'RecoveryVersionUnsupported']]);
      await assert.rejects(
        journal.commit({ transactionId: 't', workspaceRoot: box.workspace, changes: [{ kind: 'write', path: 'x.ts', content: '', expectedBeforeSha256: null }] }),
        (error: unknown) => error instanceof JunctionError && error.code === 'RecoveryVersionUnsupported' && error.next?.kind === 'inspectStatus' && error.next.tools.includes('recovery-status'),
      );
      await journal.recover();
    } finally {
      await journal.close();
    }
    try {
      const stateAfter = await hashTree(box.stateDir);
      for (const [path, hash] of Object.entries(stateBefore)) {
        if (path.startsWith('manifests/') || path.startsWith('backups/')) assert.equal(stateAfter[path], hash, path);
      }
      assert.deepEqual(Object.keys(stateAfter).filter((p) => p.startsWith('manifests/') || p.startsWith('backups/')).sort(), Object.keys(stateBefore).sort());
      assert.deepEqual(await hashTree(box.workspace), workspaceBefore);
    } finally {
      await box.cleanup();
    }
  });
});
