/**
 * One commit, in its durable order: verify before-checksums (nothing is written on a conflict), write the
 * manifest, back up before-contents, mark applying, apply each file by temp + fsync + rename, write the
 * completion marker, then discard backups and manifest. Any failure before the marker rolls back in
 * process through the same code recovery uses.
 */
import { randomUUID } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { JunctionError } from '../contracts/index.js';
import { sha256 } from './checksum.js';
import type { CommitReceipt, CommitRequest } from './contract.js';
import { forEachBounded, WRITE_PARALLELISM } from './bounded-parallel.js';
import { ensureDirectoryDurably, fsyncDirectory, removeIfPresent, writeSynced } from './durable-fs.js';
import { buildManifest, withPhase, type PreparedChange } from './manifest/index.js';
import { discardManifest, openProgressLog, writeManifest, type ProgressLog } from './manifest-store.js';
import type { JournalManifest } from './model.js';
import { resolveManifest, type ResolveResult } from './resolve-manifest.js';
import type { StateLayout } from './state-dir/layout.js';
import { absolutePath, ancestorChecker, readRegularFile } from './workspace-files.js';

export interface HookInfo {
  manifestId: string;
  transactionId: string;
  workspaceRoot: string;
  /** 1-based count of files done at `after-backup:<k>` and `after-file:<k>`. */
  count?: number;
  path?: string;
}

/** Fault-injection points, awaited in order; a crash test kills the process inside one. */
export interface JournalHooks {
  at(point: string, info: HookInfo): Promise<void> | void;
}

export interface CommitEnvironment {
  layout: StateLayout;
  hooks: JournalHooks | undefined;
  now: () => number;
  /** Called when an in-process rollback could not restore the workspace; the evidence stays for recovery. */
  onRollbackFailed: (manifest: JournalManifest, result: Extract<ResolveResult, { kind: 'conflict' }>) => void;
}

interface Staged {
  prepared: PreparedChange[];
  before: Array<Buffer | null>;
}

async function stage(request: CommitRequest): Promise<Staged> {
  const before: Array<Buffer | null> = [];
  const checkAncestors = ancestorChecker(request.workspaceRoot);
  for (const change of request.changes) {
    await checkAncestors(change.path);
    before.push(await readRegularFile(absolutePath(request.workspaceRoot, change.path), change.path));
  }
  const prepared = request.changes.map((change, i): PreparedChange => {
    const content = before[i];
    return {
      change,
      beforeSha256: content ? sha256(content) : null,
      afterSha256: change.kind === 'write' ? sha256(change.content) : null,
    };
  });
  const conflicts = prepared.filter((p) => p.beforeSha256 !== p.change.expectedBeforeSha256);
  if (conflicts.length > 0) {
    throw new JunctionError('ConflictOnDisk', `Changed on disk since the snapshot: ${conflicts.map((c) => c.change.path).join(', ')}. Nothing was written.`, {
      next: { kind: 'refreshSnapshot', tools: ['workspace-reload'] },
      details: { files: conflicts.map((c) => ({ path: c.change.path, expectedSha256: c.change.expectedBeforeSha256, actualSha256: c.beforeSha256 })) },
    });
  }
  return { prepared, before };
}

type Hook = (point: string, extra?: Partial<HookInfo>) => Promise<void>;

/**
 * Backups are written and fsynced in parallel; their progress notes and hooks then follow in file
 * order, so `after-backup:<k>` always means the first k backups are durable.
 */
async function backUp(env: CommitEnvironment, manifest: JournalManifest, before: Array<Buffer | null>, progress: ProgressLog, hook: Hook): Promise<void> {
  const dir = env.layout.backupDir(manifest.manifestId);
  await ensureDirectoryDurably(dir);
  await forEachBounded(manifest.files, WRITE_PARALLELISM, async (file, fileIndex) => {
    const content = before[fileIndex];
    if (file.backupPath && content) await writeSynced(env.layout.resolve(file.backupPath), content);
  });
  await fsyncDirectory(dir);
  for (const [fileIndex, file] of manifest.files.entries()) {
    await progress.append({ fileIndex, phase: 'backedUp' });
    await hook(`after-backup:${fileIndex + 1}`, { count: fileIndex + 1, path: file.path });
  }
}

/**
 * New contents go to fsynced temp files next to their targets first (in parallel), then each target
 * is replaced by a rename (or unlinked) in file order. The directories are fsynced once each before
 * the caller writes the completion marker, which is what makes all renames durable together; a crash
 * before that is rolled back, so no rename needs to be durable on its own.
 */
async function apply(manifest: JournalManifest, request: CommitRequest, progress: ProgressLog, hook: Hook): Promise<void> {
  const root = manifest.workspaceRoot;
  const writes = manifest.files.flatMap((file, fileIndex) => {
    const change = request.changes[fileIndex]!;
    return change.kind === 'write' ? [{ file, content: change.content }] : [];
  });
  for (const dir of new Set(writes.map((w) => dirname(absolutePath(root, w.file.path))))) await ensureDirectoryDurably(dir);
  await forEachBounded(writes, WRITE_PARALLELISM, ({ file, content }) => writeSynced(absolutePath(root, file.tempPath!), content));
  for (const [fileIndex, file] of manifest.files.entries()) {
    const target = absolutePath(root, file.path);
    if (file.operation === 'write') await rename(absolutePath(root, file.tempPath!), target);
    else await removeIfPresent(target);
    await progress.append({ fileIndex, phase: 'applied' });
    await hook(`after-file:${fileIndex + 1}`, { count: fileIndex + 1, path: file.path });
  }
  for (const dir of new Set(manifest.files.map((file) => dirname(absolutePath(root, file.path))))) await fsyncDirectory(dir);
}

/** Everything between the prepared manifest and the durable completion marker. */
async function runToCompletion(env: CommitEnvironment, prepared: JournalManifest, request: CommitRequest, before: Array<Buffer | null>, hook: Hook): Promise<void> {
  const progress = await openProgressLog(env.layout, prepared.manifestId);
  try {
    await hook('after-manifest');
    await backUp(env, prepared, before, progress, hook);
    const applying = withPhase(prepared, 'applying', 'backedUp');
    await writeManifest(env.layout, applying);
    await apply(applying, request, progress, hook);
    await hook('before-complete');
    await writeManifest(env.layout, withPhase(applying, 'completed', 'applied'));
  } finally {
    await progress.close();
  }
}

export async function commitTransaction(env: CommitEnvironment, request: CommitRequest): Promise<CommitReceipt> {
  const { prepared, before } = await stage(request);
  const manifestId = randomUUID();
  const hook: Hook = async (point, extra = {}) => {
    await env.hooks?.at(point, { manifestId, transactionId: request.transactionId, workspaceRoot: request.workspaceRoot, ...extra });
  };
  const manifest = buildManifest({
    manifestId,
    transactionId: request.transactionId,
    workspaceRoot: request.workspaceRoot,
    createdAt: env.now(),
    changes: prepared,
    backupPathFor: (fileIndex) => env.layout.backupRelative(manifestId, fileIndex),
  });

  await hook('before-manifest');
  await writeManifest(env.layout, manifest);
  try {
    await runToCompletion(env, manifest, request, before, hook);
  } catch (error) {
    await rollBack(env, manifest, error);
    throw error;
  }
  await hook('after-complete');
  try {
    await discardManifest(env.layout, manifestId);
  } catch {
    // The completion marker is durable, so the commit stands; a leftover completed manifest is
    // rolled forward (only cleaned up) by the next recovery.
  }
  return {
    transactionId: request.transactionId,
    manifestId,
    files: prepared.map((p) => ({ path: p.change.path, beforeSha256: p.beforeSha256, afterSha256: p.afterSha256 })),
  };
}

async function rollBack(env: CommitEnvironment, manifest: JournalManifest, cause: unknown): Promise<void> {
  let result: ResolveResult;
  try {
    result = await resolveManifest(env.layout, manifest);
  } catch (error) {
    result = { kind: 'conflict', direction: 'back', conflicts: [], reason: `rollback failed: ${(error as Error).message}; original failure: ${(cause as Error).message}` };
  }
  if (result.kind === 'conflict') env.onRollbackFailed(manifest, result);
}
