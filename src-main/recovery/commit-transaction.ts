/**
 * One commit, in its durable order: verify before-checksums (nothing is written on a conflict), write the
 * manifest, back up before-contents, mark applying, apply each file by temp + fsync + rename, write the
 * completion marker, then discard backups and manifest. Any failure before the marker rolls back in
 * process through the same code recovery uses.
 */
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { JunctionError } from '../shared/errors.js';
import { sha256 } from './checksum.js';
import type { CommitReceipt, CommitRequest } from './contract.js';
import { ensureDirectoryDurably, fsyncDirectory, removeDurably, replaceDurably, writeSynced } from './durable-fs.js';
import { buildManifest, withPhase, type PreparedChange } from './manifest/index.js';
import { appendProgress, discardManifest, writeManifest } from './manifest-store.js';
import type { JournalManifest } from './model.js';
import { resolveManifest, type ResolveResult } from './resolve-manifest.js';
import type { StateLayout } from './state-dir/layout.js';
import { absolutePath, assertNoSymlinkAncestors, readRegularFile } from './workspace-files.js';

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
  for (const change of request.changes) {
    await assertNoSymlinkAncestors(request.workspaceRoot, change.path);
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

async function backUp(env: CommitEnvironment, manifest: JournalManifest, before: Array<Buffer | null>, hook: (point: string, extra?: Partial<HookInfo>) => Promise<void>): Promise<void> {
  await ensureDirectoryDurably(env.layout.backupDir(manifest.manifestId));
  for (const [fileIndex, file] of manifest.files.entries()) {
    const content = before[fileIndex];
    if (file.backupPath && content) await writeSynced(env.layout.resolve(file.backupPath), content);
    await appendProgress(env.layout, manifest.manifestId, { fileIndex, phase: 'backedUp' });
    await hook(`after-backup:${fileIndex + 1}`, { count: fileIndex + 1, path: file.path });
  }
  await fsyncDirectory(env.layout.backupDir(manifest.manifestId));
}

async function apply(env: CommitEnvironment, manifest: JournalManifest, request: CommitRequest, hook: (point: string, extra?: Partial<HookInfo>) => Promise<void>): Promise<void> {
  for (const [fileIndex, file] of manifest.files.entries()) {
    const change = request.changes[fileIndex]!;
    const target = absolutePath(manifest.workspaceRoot, file.path);
    if (change.kind === 'write') {
      await ensureDirectoryDurably(dirname(target));
      await replaceDurably(target, change.content, absolutePath(manifest.workspaceRoot, file.tempPath!));
    } else {
      await removeDurably(target);
    }
    await appendProgress(env.layout, manifest.manifestId, { fileIndex, phase: 'applied' });
    await hook(`after-file:${fileIndex + 1}`, { count: fileIndex + 1, path: file.path });
  }
}

export async function commitTransaction(env: CommitEnvironment, request: CommitRequest): Promise<CommitReceipt> {
  const { prepared, before } = await stage(request);
  const manifestId = randomUUID();
  const hook = async (point: string, extra: Partial<HookInfo> = {}): Promise<void> => {
    await env.hooks?.at(point, { manifestId, transactionId: request.transactionId, workspaceRoot: request.workspaceRoot, ...extra });
  };
  let manifest = buildManifest({
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
    await hook('after-manifest');
    await backUp(env, manifest, before, hook);
    manifest = withPhase(manifest, 'applying', 'backedUp');
    await writeManifest(env.layout, manifest);
    await apply(env, manifest, request, hook);
    await hook('before-complete');
    await writeManifest(env.layout, withPhase(manifest, 'completed', 'applied'));
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
