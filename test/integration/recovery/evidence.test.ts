/** Evidence this host cannot resolve is kept byte-identical and blocks commits to its workspace. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createJournal, type Journal } from '../../../src-main/recovery/index.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';
import { hashTree, makeSandbox, readTree, shaOf, writeFiles, type Sandbox } from './helpers.js';

const MANIFEST_ID = '11111111-2222-4333-8444-555555555555';

function writeChange(workspaceRoot: string, path = 'a.txt') {
  return { transactionId: 'tx', workspaceRoot, changes: [{ kind: 'write' as const, path, content: 'new', expectedBeforeSha256: null }] };
}

async function plant(box: Sandbox, text: string): Promise<string> {
  const dir = join(box.stateDir, 'manifests');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${MANIFEST_ID}.json`);
  await writeFile(path, text);
  return path;
}

async function withPlanted(text: (box: Sandbox) => string, run: (ctx: { box: Sandbox; journal: Journal; path: string; other: string }) => Promise<void>): Promise<void> {
  const box = await makeSandbox();
  const other = join(box.root, 'other-workspace');
  await mkdir(other);
  const path = await plant(box, text(box));
  const journal = createJournal({ stateDir: box.stateDir, instanceId: 'evidence' });
  try {
    await run({ box, journal, path, other });
  } finally {
    await journal.close();
    await box.cleanup();
  }
}

const hasCode = (code: string) => (error: unknown) => error instanceof JunctionError && error.code === code && error.next?.kind === 'inspectStatus';

describe('unresolvable evidence', () => {
  test('an unsupported version blocks its workspace only, and the file stays byte-identical through open, recover and refused commits', () =>
    withPlanted(
      (box) => JSON.stringify({ formatVersion: 2, manifestId: MANIFEST_ID, workspaceRoot: box.workspace, files: [{ path: 'a.txt', mystery: 3 }] }),
      async ({ box, journal, path, other }) => {
        await writeFiles(box.workspace, { 'a.txt': 'old' });
        const bytes = await readFile(path);
        const report = await journal.open();
        assert.deepEqual(report.entries.map((e) => [e.outcome, e.formatVersion, e.manifestPath]), [['unsupported', 2, path]]);
        assert.deepEqual(journal.blockedWorkspaces().map((b) => [b.workspaceRoot, b.code, b.manifestPath]), [[box.workspace, 'RecoveryVersionUnsupported', path]]);
        assert.equal(journal.status().healthy, false);
        await assert.rejects(journal.commit({ ...writeChange(box.workspace), changes: [{ kind: 'write', path: 'a.txt', content: 'x', expectedBeforeSha256: shaOf('old') }] }), hasCode('RecoveryVersionUnsupported'));
        await assert.rejects(journal.commit(writeChange(join(box.workspace, 'nested'))), hasCode('RecoveryVersionUnsupported'));
        await journal.commit(writeChange(other));
        await journal.recover();
        assert.deepEqual(await readFile(path), bytes);
        assert.deepEqual(await readTree(box.workspace), { 'a.txt': 'old' });

        await rm(path);
        const resolved = await journal.recover();
        assert.equal(resolved.healthy, true);
        assert.deepEqual(journal.blockedWorkspaces(), []);
        await journal.commit(writeChange(box.workspace, 'b.txt'));
      },
    ));

  test('unsupported evidence that names no workspace blocks every workspace', () =>
    withPlanted(
      () => JSON.stringify({ formatVersion: 3, somethingElse: true }),
      async ({ journal, other }) => {
        await journal.open();
        assert.deepEqual(journal.blockedWorkspaces().map((b) => b.workspaceRoot), [null]);
        await assert.rejects(journal.commit(writeChange(other)), hasCode('RecoveryVersionUnsupported'));
      },
    ));

  for (const [name, text] of [
    ['invalid JSON', '{"formatVersion": 1, "manifestId": '],
    ['a format-1 manifest that fails its schema', JSON.stringify({ formatVersion: 1, manifestId: MANIFEST_ID, state: 42 })],
  ] as const) {
    test(`a corrupt manifest (${name}) is kept, reported failed, and blocks commits with RecoveryPending`, async () => {
      const box = await makeSandbox();
      await plant(box, text);
      const journal = createJournal({ stateDir: box.stateDir, instanceId: 'corrupt' });
      try {
        const before = await hashTree(box.stateDir);
        const report = await journal.open();
        assert.deepEqual(report.entries.map((e) => e.outcome), ['failed']);
        assert.deepEqual(journal.blockedWorkspaces().map((b) => [b.workspaceRoot, b.code]), [[null, 'RecoveryPending']]);
        assert.match(report.guidance ?? '', /could not be resolved/);
        await assert.rejects(journal.commit(writeChange(box.workspace)), hasCode('RecoveryPending'));
        assert.equal((await hashTree(box.stateDir))[`manifests/${MANIFEST_ID}.json`], before[`manifests/${MANIFEST_ID}.json`]);
      } finally {
        await journal.close();
        await box.cleanup();
      }
    });
  }

  test('a file changed by someone else mid-commit is reported, not overwritten, and the manifest is kept', async () => {
    const box = await makeSandbox();
    await writeFiles(box.workspace, { 'a.txt': 'old a', 'b.txt': 'old b' });
    // The hook edits a.txt behind the journal's back, then fails the commit: the in-process rollback
    // finds a.txt neither old nor new, so it must change nothing and keep the evidence.
    const journal = createJournal({
      stateDir: box.stateDir,
      instanceId: 'interfered',
      hooks: {
        async at(point) {
          if (point !== 'after-file:1') return;
          await writeFile(join(box.workspace, 'a.txt'), 'edited by someone else');
          throw new Error('failure after a foreign edit');
        },
      },
    });
    const next = createJournal({ stateDir: box.stateDir, instanceId: 'next-start' });
    try {
      await journal.open();
      await assert.rejects(
        journal.commit({
          transactionId: 'tx',
          workspaceRoot: box.workspace,
          changes: [
            { kind: 'write', path: 'a.txt', content: 'new a', expectedBeforeSha256: shaOf('old a') },
            { kind: 'write', path: 'b.txt', content: 'new b', expectedBeforeSha256: shaOf('old b') },
          ],
        }),
        /foreign edit/,
      );
      const status = journal.status();
      assert.equal(status.healthy, false);
      assert.deepEqual(status.entries.map((e) => e.outcome), ['failed']);
      assert.deepEqual(journal.blockedWorkspaces().map((b) => [b.workspaceRoot, b.code]), [[box.workspace, 'RecoveryPending']]);
      assert.match(status.entries[0]?.detail ?? '', /a\.txt/);
      assert.equal(await readFile(join(box.workspace, 'a.txt'), 'utf8'), 'edited by someone else');
      await assert.rejects(journal.commit(writeChange(box.workspace, 'c.txt')), hasCode('RecoveryPending'));
      await journal.close();

      const report = await next.open();
      assert.deepEqual(report.entries.map((e) => e.outcome), ['failed'], 'the kept manifest is reported again at the next start');
      assert.equal(await readFile(join(box.workspace, 'a.txt'), 'utf8'), 'edited by someone else');
    } finally {
      await journal.close();
      await next.close();
      await box.cleanup();
    }
  });
});
