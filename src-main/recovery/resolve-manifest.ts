/**
 * Brings one supported manifest to a resolved state on disk: removes its temp files, applies the
 * recovery plan, verifies every checksum, marks the manifest resolved and discards it with its backups.
 * Used by recovery at start and by a commit that fails part-way in process.
 */
import { dirname } from 'node:path';
import { sha256 } from './checksum.js';
import { rename } from 'node:fs/promises';
import { forEachBounded, WRITE_PARALLELISM } from './bounded-parallel.js';
import { ensureDirectoryDurably, fsyncDirectory, readIfExists, removeIfPresent, writeSynced } from './durable-fs.js';
import { planRecovery, tempPathFor, withPhase, type Direction, type FileConflict, type FileStep } from './manifest/index.js';
import { discardManifest, writeManifest } from './manifest-store.js';
import type { JournalManifest } from './model.js';
import type { StateLayout } from './state-dir/layout.js';
import { absolutePath, readRegularFile } from './workspace-files.js';

export type ResolveResult =
  | { kind: 'resolved'; direction: Direction; restored: number; removed: number; unchanged: number }
  | { kind: 'conflict'; direction: Direction; conflicts: FileConflict[]; reason: string };

async function observe(manifest: JournalManifest): Promise<Array<string | null>> {
  return Promise.all(
    manifest.files.map(async (file) => {
      const content = await readRegularFile(absolutePath(manifest.workspaceRoot, file.path), file.path);
      return content === null ? null : sha256(content);
    }),
  );
}

function tempOf(manifest: JournalManifest, fileIndex: number): string {
  const file = manifest.files[fileIndex]!;
  return absolutePath(manifest.workspaceRoot, file.tempPath ?? tempPathFor(file.path, manifest.manifestId, fileIndex));
}

async function removeTemps(manifest: JournalManifest): Promise<void> {
  for (let i = 0; i < manifest.files.length; i++) await removeIfPresent(tempOf(manifest, i));
}

/** Backups are checked before anything is restored, so a damaged backup never half-reverts a transaction. */
async function loadBackups(layout: StateLayout, manifest: JournalManifest, steps: FileStep[]): Promise<Map<number, Buffer> | FileConflict[]> {
  const backups = new Map<number, Buffer>();
  const damaged: FileConflict[] = [];
  for (const step of steps.filter((s) => s.action === 'restoreBackup')) {
    const file = manifest.files[step.fileIndex]!;
    const content = file.backupPath ? await readIfExists(layout.resolve(file.backupPath)) : null;
    const actual = content === null ? null : sha256(content);
    if (content === null || actual !== file.beforeSha256) damaged.push({ path: file.path, observedSha256: actual, expected: [file.beforeSha256] });
    else backups.set(step.fileIndex, content);
  }
  return damaged.length > 0 ? damaged : backups;
}

/** Same durable order as a commit's apply: fsynced temps in parallel, renames and unlinks, then one fsync per directory. */
async function applySteps(manifest: JournalManifest, steps: FileStep[], backups: Map<number, Buffer>): Promise<void> {
  const changing = steps.filter((s) => s.action !== 'keep');
  const targetOf = (step: FileStep) => absolutePath(manifest.workspaceRoot, manifest.files[step.fileIndex]!.path);
  const restores = changing.filter((s) => s.action === 'restoreBackup');
  for (const dir of new Set(restores.map((s) => dirname(targetOf(s))))) await ensureDirectoryDurably(dir);
  await forEachBounded(restores, WRITE_PARALLELISM, (step) => writeSynced(tempOf(manifest, step.fileIndex), backups.get(step.fileIndex)!));
  for (const step of changing) {
    if (step.action === 'restoreBackup') await rename(tempOf(manifest, step.fileIndex), targetOf(step));
    else await removeIfPresent(targetOf(step));
  }
  for (const dir of new Set(changing.map((s) => dirname(targetOf(s))))) await fsyncDirectory(dir);
}

export async function resolveManifest(layout: StateLayout, manifest: JournalManifest): Promise<ResolveResult> {
  await removeTemps(manifest);
  const plan = planRecovery(manifest, await observe(manifest));
  if (plan.kind === 'conflict') {
    return { kind: 'conflict', direction: plan.direction, conflicts: plan.conflicts, reason: 'files changed outside the transaction since it was interrupted' };
  }
  const backups = await loadBackups(layout, manifest, plan.steps);
  if (Array.isArray(backups)) return { kind: 'conflict', direction: plan.direction, conflicts: backups, reason: 'backups are missing or damaged' };
  await applySteps(manifest, plan.steps, backups);

  const after = await observe(manifest);
  const mismatched = plan.steps.filter((s) => after[s.fileIndex] !== s.targetSha256);
  if (mismatched.length > 0) {
    return {
      kind: 'conflict',
      direction: plan.direction,
      reason: 'checksums did not verify after recovery',
      conflicts: mismatched.map((s) => ({ path: manifest.files[s.fileIndex]!.path, observedSha256: after[s.fileIndex] ?? null, expected: [s.targetSha256] })),
    };
  }
  const resolved = plan.direction === 'forward' ? withPhase(manifest, 'completed', 'applied') : withPhase(manifest, 'rolledBack', 'restored');
  if (manifest.phase !== resolved.phase) await writeManifest(layout, resolved);
  await discardManifest(layout, manifest.manifestId);
  const count = (action: FileStep['action']) => plan.steps.filter((s) => s.action === action).length;
  return { kind: 'resolved', direction: plan.direction, restored: count('restoreBackup'), removed: count('remove'), unchanged: count('keep') };
}
