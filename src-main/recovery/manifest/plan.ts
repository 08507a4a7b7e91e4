/**
 * The recovery rule, as pure logic over a manifest and the checksums observed on disk.
 *
 * Rule: a transaction whose completion marker is durable (phase `completed`) rolls forward; every other
 * incomplete transaction rolls back. The commit call returns its receipt only after the marker, so a
 * transaction without it was never acknowledged to the caller: restoring all-old matches what the
 * caller believes, and it needs only the before-content backups that exist before any file is touched.
 * Nothing is changed unless every file is in a state this rule can explain; otherwise the evidence is
 * kept and the conflict reported (someone else changed a file after the crash).
 */
import type { JournalManifest } from '../model.js';

export type Direction = 'forward' | 'back';
export type FileAction = 'keep' | 'restoreBackup' | 'remove';

export interface FileStep {
  fileIndex: number;
  action: FileAction;
  /** The checksum the file must have once the step ran (null = must not exist). */
  targetSha256: string | null;
}

export interface FileConflict {
  path: string;
  observedSha256: string | null;
  expected: Array<string | null>;
}

export type RecoveryPlan =
  | { kind: 'resolve'; direction: Direction; steps: FileStep[] }
  | { kind: 'conflict'; direction: Direction; conflicts: FileConflict[] };

export function directionFor(manifest: JournalManifest): Direction {
  return manifest.phase === 'completed' ? 'forward' : 'back';
}

/** `observed[i]` is the current checksum of `manifest.files[i]`, null when the file is absent. */
export function planRecovery(manifest: JournalManifest, observed: ReadonlyArray<string | null>): RecoveryPlan {
  const direction = directionFor(manifest);
  const steps: FileStep[] = [];
  const conflicts: FileConflict[] = [];
  manifest.files.forEach((file, fileIndex) => {
    const now = observed[fileIndex] ?? null;
    const target = direction === 'forward' ? file.afterSha256 : file.beforeSha256;
    if (now === target) {
      steps.push({ fileIndex, action: 'keep', targetSha256: target });
    } else if (direction === 'back' && now === file.afterSha256) {
      steps.push({ fileIndex, action: target === null ? 'remove' : 'restoreBackup', targetSha256: target });
    } else {
      const expected = direction === 'back' ? [file.beforeSha256, file.afterSha256] : [file.afterSha256];
      conflicts.push({ path: file.path, observedSha256: now, expected });
    }
  });
  return conflicts.length > 0 ? { kind: 'conflict', direction, conflicts } : { kind: 'resolve', direction, steps };
}
