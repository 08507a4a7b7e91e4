import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createJournal } from '../../src-main/recovery/index.js';
import { injectWriteFault } from '../../src-main/recovery/durable-fs.js';
import { JunctionError } from '../../src-main/contracts/errors.js';
import { startTestJunction, type TestJunction } from '../support/junction-harness.js';

const DEMO_WORKSPACE = join(import.meta.dirname, '../../demo/workspace');

function enospc(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', errno: -28, syscall: 'write', path });
}

/** Every file under `dir` (directories aside: a rolled-back commit may leave one it created, empty), relative, sorted. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

async function api(junction: TestJunction, tool: string, body: Record<string, unknown>) {
  const response = await fetch(`${junction.baseUrl}/api/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { structuredContent?: Record<string, unknown>; error?: { code: string; message: string } } };
}

describe('a full disk', () => {
  afterEach(() => injectWriteFault(undefined));

  test('during a commit: DiskFull, the workspace is as before with no temp files left, and the next commit succeeds', async () => {
    const root = mkdtempSync(join(tmpdir(), 'junction-diskfull-ws-'));
    cpSync(DEMO_WORKSPACE, root, { recursive: true });
    const junction = await startTestJunction([`workspace=${root}`, 'mode=autonomous-trusted']);
    try {
      const before = tree(root);
      const status = await api(junction, 'workspace-status', {});
      const snapshot = (status.body.structuredContent!.items as Array<{ snapshot: unknown }>)[0]!.snapshot;
      const started = await api(junction, 'transaction-start', { expectedSnapshot: snapshot });
      const changes = Array.from({ length: 60 }, (_, i) => ({ kind: 'create', path: `src/generated/g${i}.ts`, content: `export const g${i} = ${i};\n`.repeat(50) }));
      const staged = await api(junction, 'stage-edits', { expectedSnapshot: started.body.structuredContent!.snapshot, summary: 'many files', changes });
      assert.equal(staged.status, 200, JSON.stringify(staged.body));

      // A slow disk that is full for one of the commit's temp writes (another process frees space right
      // after): writes still running or queued must not outlive the rollback's cleanup.
      let tempWrites = 0;
      injectWriteFault(async (path) => {
        if (!basename(path).startsWith('.jx-')) return undefined;
        if (++tempWrites === 3) return enospc(path);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return undefined;
      });
      const failed = await api(junction, 'transaction-commit', { expectedSnapshot: staged.body.structuredContent!.snapshot });
      assert.equal(failed.body.error?.code, 'DiskFull', JSON.stringify(failed.body));
      assert.equal(failed.status, 503);
      assert.match(failed.body.error.message, /No space left/);
      assert.deepEqual(tree(root), before, 'the workspace is exactly as before: no new files, no .jx-*.tmp left');
      const recovery = await api(junction, 'recovery-status', {});
      assert.equal(recovery.body.structuredContent!.healthy, true, 'the in-process rollback resolved everything');

      injectWriteFault(undefined);
      const committed = await api(junction, 'transaction-commit', { expectedSnapshot: staged.body.structuredContent!.snapshot });
      assert.equal(committed.status, 200, JSON.stringify(committed.body));
      assert.equal(readdirSync(join(root, 'src', 'generated')).length, 60);
    } finally {
      await junction.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('in the state directory: a failed manifest write leaves no temp, and a start held up by a partial temp frees it and starts', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'junction-diskfull-state-'));
    const root = mkdtempSync(join(tmpdir(), 'junction-diskfull-ws2-'));
    try {
      const first = createJournal({ stateDir, instanceId: randomUUID() });
      await first.open();
      injectWriteFault((path) => (path.includes(`${join(stateDir, 'manifests')}`) ? enospc(path) : undefined));
      await assert.rejects(
        first.commit({ transactionId: randomUUID(), workspaceRoot: root, changes: [{ path: 'a.ts', kind: 'write', content: 'export {};\n', expectedBeforeSha256: null }] }),
        (error: unknown) => error instanceof JunctionError && error.code === 'DiskFull',
      );
      assert.deepEqual(readdirSync(join(stateDir, 'manifests')), [], 'no partial manifest temp is left behind');
      assert.equal(existsSync(join(root, 'a.ts')), false);
      await first.close();

      // A crash part-way through a manifest write left a partial temp; the disk stays full while it exists.
      const partial = join(stateDir, 'manifests', `.${randomUUID()}.json.tmp`);
      writeFileSync(partial, '{"formatVersion":1,"manife');
      injectWriteFault((path) => (existsSync(partial) ? enospc(path) : undefined));
      const second = createJournal({ stateDir, instanceId: randomUUID() });
      const report = await second.open();
      assert.equal(report.healthy, true);
      assert.equal(existsSync(partial), false, 'the partial temp was removed before anything new was written');
      await second.close();

      injectWriteFault((path) => enospc(path));
      const third = createJournal({ stateDir, instanceId: randomUUID() });
      await assert.rejects(third.open(), (error: unknown) => error instanceof JunctionError && error.code === 'DiskFull' && error.message.includes(stateDir));
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('at start, commit temp files left in a configured workspace are removed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'junction-diskfull-ws3-'));
    cpSync(DEMO_WORKSPACE, root, { recursive: true });
    mkdirSync(join(root, 'src', 'deeper'), { recursive: true });
    const leftovers = [join(root, `.jx-${randomUUID()}-0.tmp`), join(root, 'src', 'deeper', `.jx-${randomUUID()}-41.tmp`)];
    for (const file of leftovers) writeFileSync(file, 'partial');
    const keep = join(root, 'src', '.jx-notes.tmp');
    writeFileSync(keep, 'not a commit temp');
    const junction = await startTestJunction([`workspace=${root}`]);
    try {
      for (const file of leftovers) assert.equal(existsSync(file), false, `${file} was removed`);
      assert.equal(readFileSync(keep, 'utf8'), 'not a commit temp', 'files that only look similar are kept');
    } finally {
      await junction.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
