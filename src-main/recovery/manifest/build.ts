/** Builds the manifest for a validated commit request. Pure: checksums and ids come in as arguments. */
import { posix } from 'node:path';
import type { FileChange } from '../contract.js';
import type { JournalFile, JournalManifest } from '../model.js';

export interface PreparedChange {
  change: FileChange;
  beforeSha256: string | null;
  afterSha256: string | null;
}

/** Temp names carry the manifest id and file index, so recovery can find and remove exactly its own leftovers. */
export function tempPathFor(path: string, manifestId: string, fileIndex: number): string {
  return posix.join(posix.dirname(path), `.jx-${manifestId}-${fileIndex}.tmp`);
}

export function buildManifest(input: {
  manifestId: string;
  transactionId: string;
  workspaceRoot: string;
  createdAt: number;
  changes: PreparedChange[];
  backupPathFor: (fileIndex: number) => string;
}): JournalManifest {
  const files = input.changes.map(({ change, beforeSha256, afterSha256 }, index): JournalFile => ({
    path: change.path,
    operation: change.kind,
    beforeSha256,
    afterSha256,
    backupPath: beforeSha256 === null ? null : input.backupPathFor(index),
    tempPath: tempPathFor(change.path, input.manifestId, index),
    phase: 'pending',
  }));
  return {
    manifestId: input.manifestId,
    transactionId: input.transactionId,
    workspaceRoot: input.workspaceRoot,
    createdAt: input.createdAt,
    phase: 'prepared',
    files,
  };
}

export function withPhase(manifest: JournalManifest, phase: JournalManifest['phase'], filePhase: JournalFile['phase']): JournalManifest {
  return { ...manifest, phase, files: manifest.files.map((file) => ({ ...file, phase: filePhase })) };
}
