import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createJournal, type Journal } from '../../../src-main/recovery/index.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';
import { makeSandbox, readTree, shaOf, writeFiles, type Sandbox } from './helpers.js';

async function withJournal(run: (ctx: { box: Sandbox; journal: Journal }) => Promise<void>): Promise<void> {
  const box = await makeSandbox();
  const journal = createJournal({ stateDir: box.stateDir, instanceId: 'test-instance' });
  try {
    await journal.open();
    await run({ box, journal });
  } finally {
    await journal.close();
    await box.cleanup();
  }
}

function isCode(code: string) {
  return (error: unknown) => error instanceof JunctionError && error.code === code;
}

describe('journal commit', () => {
  test('writes, creates and deletes files and leaves no evidence behind', () =>
    withJournal(async ({ box, journal }) => {
      await writeFiles(box.workspace, { 'a.txt': 'old a', 'gone.txt': 'bye' });
      const receipt = await journal.commit({
        transactionId: 'tx-1',
        workspaceRoot: box.workspace,
        changes: [
          { kind: 'write', path: 'a.txt', content: 'new a', expectedBeforeSha256: shaOf('old a') },
          { kind: 'write', path: 'dir/sub/b.txt', content: new TextEncoder().encode('new b'), expectedBeforeSha256: null },
          { kind: 'delete', path: 'gone.txt', expectedBeforeSha256: shaOf('bye') },
        ],
      });
      assert.equal(receipt.transactionId, 'tx-1');
      assert.deepEqual(receipt.files, [
        { path: 'a.txt', beforeSha256: shaOf('old a'), afterSha256: shaOf('new a') },
        { path: 'dir/sub/b.txt', beforeSha256: null, afterSha256: shaOf('new b') },
        { path: 'gone.txt', beforeSha256: shaOf('bye'), afterSha256: null },
      ]);
      assert.deepEqual(await readTree(box.workspace), { 'a.txt': 'new a', 'dir/sub/b.txt': 'new b' });
      assert.deepEqual(await readdir(join(box.stateDir, 'manifests')), []);
      assert.deepEqual(await readdir(join(box.stateDir, 'backups')), []);
    }));

  test('ConflictOnDisk names every mismatched file and writes nothing', () =>
    withJournal(async ({ box, journal }) => {
      await writeFiles(box.workspace, { 'a.txt': 'a', 'b.txt': 'changed underneath', 'c.txt': 'c' });
      const before = await readTree(box.workspace);
      await assert.rejects(
        journal.commit({
          transactionId: 'tx-2',
          workspaceRoot: box.workspace,
          changes: [
            { kind: 'write', path: 'a.txt', content: 'A', expectedBeforeSha256: shaOf('a') },
            { kind: 'write', path: 'b.txt', content: 'B', expectedBeforeSha256: shaOf('b') },
            { kind: 'write', path: 'c.txt', content: 'C', expectedBeforeSha256: null },
            { kind: 'write', path: 'new.txt', content: 'N', expectedBeforeSha256: null },
          ],
        }),
        (error: unknown) => {
          assert.ok(error instanceof JunctionError);
          assert.equal(error.code, 'ConflictOnDisk');
          const files = (error.details?.files as Array<{ path: string }>).map((f) => f.path);
          assert.deepEqual(files, ['b.txt', 'c.txt']);
          return true;
        },
      );
      assert.deepEqual(await readTree(box.workspace), before);
      assert.deepEqual(await readdir(join(box.stateDir, 'manifests')), []);
    }));

  test('a failure part-way through rolls the workspace back in process', async () => {
    const box = await makeSandbox();
    const journal = createJournal({
      stateDir: box.stateDir,
      instanceId: 'failing',
      hooks: {
        at(point) {
          if (point === 'after-file:2') throw new Error('injected failure');
        },
      },
    });
    try {
      await journal.open();
      await writeFiles(box.workspace, { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
      await assert.rejects(
        journal.commit({
          transactionId: 'tx-3',
          workspaceRoot: box.workspace,
          changes: [
            { kind: 'write', path: 'a.txt', content: 'A', expectedBeforeSha256: shaOf('a') },
            { kind: 'delete', path: 'b.txt', expectedBeforeSha256: shaOf('b') },
            { kind: 'write', path: 'c.txt', content: 'C', expectedBeforeSha256: shaOf('c') },
            { kind: 'write', path: 'd.txt', content: 'D', expectedBeforeSha256: null },
          ],
        }),
        /injected failure/,
      );
      assert.deepEqual(await readTree(box.workspace), { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
      assert.deepEqual(await readdir(join(box.stateDir, 'manifests')), []);
      assert.equal(journal.status().healthy, true);
    } finally {
      await journal.close();
      await box.cleanup();
    }
  });

  test('rejects paths that leave the workspace and duplicate paths', () =>
    withJournal(async ({ box, journal }) => {
      for (const path of ['../x', '/etc/passwd', 'a//b', './a', 'a\\b']) {
        await assert.rejects(
          journal.commit({ transactionId: 't', workspaceRoot: box.workspace, changes: [{ kind: 'write', path, content: 'x', expectedBeforeSha256: null }] }),
          isCode('PathOutsideWorkspace'),
          path,
        );
      }
      await assert.rejects(
        journal.commit({
          transactionId: 't',
          workspaceRoot: box.workspace,
          changes: [
            { kind: 'write', path: 'a', content: 'x', expectedBeforeSha256: null },
            { kind: 'write', path: 'a', content: 'y', expectedBeforeSha256: null },
          ],
        }),
        isCode('ValidationFailed'),
      );
      assert.deepEqual(await readTree(box.workspace), {});
    }));

  test('a second commit to the same workspace while one runs fails with ConcurrentCommit', async () => {
    const box = await makeSandbox();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    const journal = createJournal({
      stateDir: box.stateDir,
      instanceId: 'gated',
      hooks: {
        async at(point) {
          if (point === 'after-manifest') {
            reached();
            await gate;
          }
        },
      },
    });
    try {
      await journal.open();
      const first = journal.commit({ transactionId: 'one', workspaceRoot: box.workspace, changes: [{ kind: 'write', path: 'a', content: '1', expectedBeforeSha256: null }] });
      await atGate;
      await assert.rejects(
        journal.commit({ transactionId: 'two', workspaceRoot: box.workspace, changes: [{ kind: 'write', path: 'b', content: '2', expectedBeforeSha256: null }] }),
        isCode('ConcurrentCommit'),
      );
      release();
      await first;
      assert.deepEqual(await readTree(box.workspace), { a: '1' });
    } finally {
      await journal.close();
      await box.cleanup();
    }
  });

  test('commit before open is refused with RecoveryPending', async () => {
    const box = await makeSandbox();
    try {
      const journal = createJournal({ stateDir: box.stateDir, instanceId: 'closed' });
      await assert.rejects(journal.commit({ transactionId: 't', workspaceRoot: box.workspace, changes: [{ kind: 'write', path: 'a', content: 'x', expectedBeforeSha256: null }] }), isCode('RecoveryPending'));
    } finally {
      await box.cleanup();
    }
  });
});
