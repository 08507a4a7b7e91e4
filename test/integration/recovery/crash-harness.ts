/**
 * The crash harness: a child process commits a 200-file transaction through the real journal and
 * SIGKILLs itself at an injected point. A fresh journal then recovers the state directory, and every
 * file of the transaction must be all-old (killed before the completion marker) or all-new (killed
 * after it), with the journal left clean: no manifests, no backups, no temp files in the workspace.
 * The kill points are split over CRASH_PARTS test files (crash.test.ts, crash-part2..8.test.ts).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJournal, sha256 } from '../../../src-main/recovery/index.js';
import { FILE_COUNT, newContent, oldContent, pathOf, treeOf } from './crash-transaction.js';
import { makeSandbox, readTree, writeFiles } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..', '..');
const CHILD = join(here, 'crash-child.ts');
const PARALLEL_CHILDREN = 4;

function spread(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}:${1 + Math.round((i * (FILE_COUNT - 1)) / (count - 1))}`);
}

/** Every kill point, in commit order: 2 around the manifest, 12 mid-backup, 34 mid-apply, 2 around the marker. */
export const KILL_POINTS: readonly string[] = [
  'before-manifest',
  'after-manifest',
  ...spread('after-backup', 12),
  ...spread('after-file', 32),
  'after-file:171',
  'after-file:186',
  'before-complete',
  'after-complete',
];

export const CRASH_PARTS = 8;

/**
 * The points one crash test file runs: every CRASH_PARTS-th point, so each file samples every phase
 * and stays well inside the per-file test timeout even when the machine is busy.
 */
export function killPointsOfPart(part: number): string[] {
  return KILL_POINTS.filter((_, i) => i % CRASH_PARTS === part - 1);
}

function runChild(stateDir: string, workspace: string, killPoint: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, stateDir, workspace, killPoint], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

export interface CaseResult {
  killPoint: string;
  failure?: string;
}

async function crashAndRecover(killPoint: string): Promise<CaseResult> {
  const box = await makeSandbox('jx-crash-');
  try {
    await writeFiles(box.workspace, treeOf(oldContent));
    const run = await runChild(box.stateDir, box.workspace, killPoint);
    assert.equal(run.signal, 'SIGKILL', `child for ${killPoint} was not killed at its point (exit ${run.code}): ${run.stderr}`);

    const journal = createJournal({ stateDir: box.stateDir, instanceId: `recoverer-${killPoint}` });
    const report = await journal.open();
    const takeover = journal.lockTakeover();
    await journal.close();

    const committed = killPoint === 'after-complete';
    assert.equal(report.healthy, true, `${killPoint}: ${JSON.stringify(report)}`);
    assert.match(takeover?.reason ?? '', /not running/, `${killPoint}: the dead child's lock was taken over`);
    const expectedOutcome = killPoint === 'before-manifest' ? [] : [committed ? 'completed' : 'reverted'];
    assert.deepEqual(report.entries.filter((e) => e.manifestPath.endsWith('.json')).map((e) => e.outcome), expectedOutcome, killPoint);

    const tree = await readTree(box.workspace);
    const expected = treeOf(committed ? newContent : oldContent);
    assert.deepEqual(Object.keys(tree).sort(), Object.keys(expected).sort(), `${killPoint}: exactly the transaction's files, no temp files`);
    for (let i = 0; i < FILE_COUNT; i++) {
      const want = committed ? newContent(i) : oldContent(i);
      const got = tree[pathOf(i)];
      assert.equal(got === undefined ? null : sha256(got), want === null ? null : sha256(want), `${killPoint}: ${pathOf(i)}`);
    }
    assert.deepEqual(await readdir(join(box.stateDir, 'manifests')), [], `${killPoint}: no manifests left`);
    assert.deepEqual(await readdir(join(box.stateDir, 'backups')), [], `${killPoint}: no backups left`);
    return { killPoint };
  } catch (error) {
    return { killPoint, failure: (error as Error).message };
  } finally {
    await box.cleanup();
  }
}

/** Runs every kill point with a few children at once; failures are collected, not thrown, so all points report. */
export async function runKillPoints(points: readonly string[]): Promise<CaseResult[]> {
  const queue = [...points];
  const results: CaseResult[] = [];
  await Promise.all(
    Array.from({ length: PARALLEL_CHILDREN }, async () => {
      for (let point = queue.shift(); point !== undefined; point = queue.shift()) results.push(await crashAndRecover(point));
    }),
  );
  return results;
}
