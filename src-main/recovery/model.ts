/**
 * The version-neutral runtime recovery model. Persisted formats map into and out of it explicitly
 * (see persisted/); nothing outside persisted/ knows how a format spells these values on disk.
 */
export type TransactionPhase = 'prepared' | 'applying' | 'completed' | 'rolledBack';
export type FilePhase = 'pending' | 'backedUp' | 'applied' | 'restored';
export type FileOperation = 'write' | 'delete';

export interface JournalFile {
  /** Workspace-relative POSIX path. */
  path: string;
  operation: FileOperation;
  /** SHA-256 (lowercase hex) of the content before the commit; null when the file did not exist. */
  beforeSha256: string | null;
  /** SHA-256 of the content after the commit; null when the commit deletes the file. */
  afterSha256: string | null;
  /** State-directory-relative POSIX path of the before-content copy; null when there was no file before. */
  backupPath: string | null;
  /** Workspace-relative POSIX path of the temp file new or restored content is staged in before its rename. */
  tempPath: string | null;
  phase: FilePhase;
}

export interface JournalManifest {
  manifestId: string;
  transactionId: string;
  /** Absolute, symlink-resolved workspace root. */
  workspaceRoot: string;
  /** Epoch milliseconds. */
  createdAt: number;
  phase: TransactionPhase;
  files: JournalFile[];
}

export interface OwnerRecord {
  instanceId: string;
  pid: number;
  /** Epoch milliseconds. */
  startedAt: number;
}

/** An advisory per-file progress note appended while a commit runs (recovery decides from checksums). */
export interface FileProgress {
  fileIndex: number;
  phase: FilePhase;
}
