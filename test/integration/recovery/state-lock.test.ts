import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile, access } from 'node:fs/promises';
import { join } from 'node:path';
import { createJournal } from '../../../src-main/recovery/index.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';
import { makeSandbox, shaOf } from './helpers.js';

const isLocked = (error: unknown) => error instanceof JunctionError && error.code === 'StateDirectoryLocked';

/** A pid that certainly belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  assert.ok(child.pid);
  return child.pid;
}

async function writeLock(stateDir: string, content: object): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  await writeFile(join(stateDir, 'owner.lock'), JSON.stringify(content));
}

describe('state directory lock', () => {
  test('open writes the owner record and a lock that close releases', async () => {
    const box = await makeSandbox();
    const journal = createJournal({ stateDir: box.stateDir, instanceId: 'owner-1', now: () => 1234 });
    try {
      const report = await journal.open();
      assert.deepEqual(report.owner, { instanceId: 'owner-1', pid: process.pid, startedAt: 1234 });
      assert.equal(journal.lockTakeover(), null);
      assert.deepEqual(report.entries, []);
      assert.deepEqual(JSON.parse(await readFile(join(box.stateDir, 'owner.json'), 'utf8')), { formatVersion: 1, instanceId: 'owner-1', pid: process.pid, startedAt: 1234 });
      assert.equal((JSON.parse(await readFile(join(box.stateDir, 'owner.lock'), 'utf8')) as { instanceId: string }).instanceId, 'owner-1');
      await journal.close();
      await assert.rejects(access(join(box.stateDir, 'owner.lock')), { code: 'ENOENT' });
    } finally {
      await journal.close();
      await box.cleanup();
    }
  });

  test('a second instance on the same state directory is refused while the first is open', async () => {
    const box = await makeSandbox();
    const first = createJournal({ stateDir: box.stateDir, instanceId: 'first' });
    const second = createJournal({ stateDir: box.stateDir, instanceId: 'second' });
    try {
      await first.open();
      await assert.rejects(second.open(), (error: unknown) => isLocked(error) && (error as JunctionError).details?.instanceId === 'first');
      await first.commit({ transactionId: 't', workspaceRoot: box.workspace, changes: [{ kind: 'write', path: 'a', content: 'still works', expectedBeforeSha256: null }] });
      await first.close();
      await second.open();
      await second.commit({ transactionId: 't2', workspaceRoot: box.workspace, changes: [{ kind: 'write', path: 'a', content: 'second', expectedBeforeSha256: shaOf('still works') }] });
    } finally {
      await first.close();
      await second.close();
      await box.cleanup();
    }
  });

  test('a lock held by another live process is refused and left in place', async () => {
    const box = await makeSandbox();
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      assert.ok(holder.pid);
      const lock = { formatVersion: 1, instanceId: 'other-process', pid: holder.pid, startedAt: 1 };
      await writeLock(box.stateDir, lock);
      const journal = createJournal({ stateDir: box.stateDir, instanceId: 'me' });
      await assert.rejects(journal.open(), isLocked);
      assert.deepEqual(JSON.parse(await readFile(join(box.stateDir, 'owner.lock'), 'utf8')), lock);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => (holder.exitCode !== null || holder.signalCode !== null ? resolve(null) : holder.on('exit', resolve)));
      await box.cleanup();
    }
  });

  test('a stale lock of a dead process is taken over and reported', async () => {
    const box = await makeSandbox();
    const pid = await deadPid();
    await writeLock(box.stateDir, { formatVersion: 1, instanceId: 'crashed', pid, startedAt: 1 });
    const journal = createJournal({ stateDir: box.stateDir, instanceId: 'successor' });
    try {
      const report = await journal.open();
      const takeover = journal.lockTakeover();
      assert.equal(takeover?.pid, pid);
      assert.equal(takeover?.instanceId, 'crashed');
      assert.match(takeover?.reason ?? '', /not running/);
      assert.deepEqual(
        report.entries.map((e) => [e.manifestPath, e.outcome, e.formatVersion]),
        [[join(box.stateDir, 'owner.lock'), 'clean', null]],
      );
      assert.match(report.entries[0]?.detail ?? '', new RegExp(`stale lock of instance crashed \\(pid ${pid}\\)`));
      assert.equal((JSON.parse(await readFile(join(box.stateDir, 'owner.lock'), 'utf8')) as { instanceId: string }).instanceId, 'successor');
    } finally {
      await journal.close();
      await box.cleanup();
    }
  });

  test("a lock naming this process's pid but no instance it holds is an earlier incarnation's and is taken over", async () => {
    const box = await makeSandbox();
    await writeLock(box.stateDir, { formatVersion: 1, instanceId: 'previous-run', pid: process.pid, startedAt: 1 });
    const journal = createJournal({ stateDir: box.stateDir, instanceId: 'this-run' });
    try {
      const report = await journal.open();
      assert.equal(journal.lockTakeover()?.instanceId, 'previous-run');
      assert.equal(report.entries[0]?.outcome, 'clean');
    } finally {
      await journal.close();
      await box.cleanup();
    }
  });
});
