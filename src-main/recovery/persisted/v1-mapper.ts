/** Explicit mappings between format-1 evidence and the runtime model, in both directions. */
import type { FileOperation, FilePhase, FileProgress, JournalFile, JournalManifest, OwnerRecord, TransactionPhase } from '../model.js';
import { FORMAT_VERSION_V1, FileOperationV1, FileStateV1, ManifestStateV1, type FileEntryV1, type ManifestV1, type OwnerRecordV1, type ProgressLineV1 } from './v1.js';

/**
 * Writing is the exact inverse of reading, so each writer table is derived from its reader table rather
 * than kept as a second copy that could drift. The reader tables are total over the persisted enums.
 */
function inverse<Persisted extends number, Runtime extends string>(table: Record<Persisted, Runtime>): Record<Runtime, Persisted> {
  return Object.fromEntries(Object.entries(table).map(([persisted, runtime]) => [runtime, Number(persisted)])) as Record<Runtime, Persisted>;
}

const PHASE_FROM_V1: Record<ManifestStateV1, TransactionPhase> = {
  [ManifestStateV1.Prepared]: 'prepared',
  [ManifestStateV1.Applying]: 'applying',
  [ManifestStateV1.Completed]: 'completed',
  [ManifestStateV1.RolledBack]: 'rolledBack',
};
const FILE_PHASE_FROM_V1: Record<FileStateV1, FilePhase> = {
  [FileStateV1.Pending]: 'pending',
  [FileStateV1.BackedUp]: 'backedUp',
  [FileStateV1.Applied]: 'applied',
  [FileStateV1.Restored]: 'restored',
};
const OPERATION_FROM_V1: Record<FileOperationV1, FileOperation> = {
  [FileOperationV1.Write]: 'write',
  [FileOperationV1.Delete]: 'delete',
};
const PHASE_TO_V1 = inverse(PHASE_FROM_V1);
const FILE_PHASE_TO_V1 = inverse(FILE_PHASE_FROM_V1);
const OPERATION_TO_V1 = inverse(OPERATION_FROM_V1);

function fileFromV1(entry: FileEntryV1): JournalFile {
  return {
    path: entry.path,
    operation: OPERATION_FROM_V1[entry.operation],
    beforeSha256: entry.beforeSha256,
    afterSha256: entry.afterSha256,
    backupPath: entry.backupPath,
    tempPath: entry.tempPath,
    phase: FILE_PHASE_FROM_V1[entry.state],
  };
}

function fileToV1(file: JournalFile): FileEntryV1 {
  return {
    path: file.path,
    operation: OPERATION_TO_V1[file.operation],
    beforeSha256: file.beforeSha256,
    afterSha256: file.afterSha256,
    backupPath: file.backupPath,
    tempPath: file.tempPath,
    state: FILE_PHASE_TO_V1[file.phase],
  };
}

export function manifestFromV1(persisted: ManifestV1): JournalManifest {
  return {
    manifestId: persisted.manifestId,
    transactionId: persisted.transactionId,
    workspaceRoot: persisted.workspaceRoot,
    createdAt: persisted.createdAt,
    phase: PHASE_FROM_V1[persisted.state],
    files: persisted.files.map(fileFromV1),
  };
}

export function manifestToV1(manifest: JournalManifest): ManifestV1 {
  return {
    formatVersion: FORMAT_VERSION_V1,
    manifestId: manifest.manifestId,
    transactionId: manifest.transactionId,
    workspaceRoot: manifest.workspaceRoot,
    createdAt: manifest.createdAt,
    state: PHASE_TO_V1[manifest.phase],
    files: manifest.files.map(fileToV1),
  };
}

export function ownerFromV1(persisted: OwnerRecordV1): OwnerRecord {
  return { instanceId: persisted.instanceId, pid: persisted.pid, startedAt: persisted.startedAt };
}

export function ownerToV1(owner: OwnerRecord): OwnerRecordV1 {
  return { formatVersion: FORMAT_VERSION_V1, instanceId: owner.instanceId, pid: owner.pid, startedAt: owner.startedAt };
}

export function progressFromV1(line: ProgressLineV1): FileProgress {
  return { fileIndex: line.file, phase: FILE_PHASE_FROM_V1[line.state] };
}

export function progressToV1(progress: FileProgress): ProgressLineV1 {
  return { file: progress.fileIndex, state: FILE_PHASE_TO_V1[progress.phase] };
}
