/**
 * What the host needs from the recovery journal: apply a set of file changes to one workspace
 * atomically and durably. The journal owns temp files, fsync, renames, backups and manifests.
 */
export type FileChange =
  | { kind: 'write'; path: string; content: string | Uint8Array; expectedBeforeSha256: string | null }
  | { kind: 'delete'; path: string; expectedBeforeSha256: string };

export interface CommitRequest {
  transactionId: string;
  /** Absolute, real (symlink-resolved) workspace root. Every change path is relative to it. */
  workspaceRoot: string;
  /** Workspace-relative POSIX paths; renames are a delete plus a write. */
  changes: FileChange[];
}

export interface CommitReceipt {
  transactionId: string;
  manifestId: string;
  files: Array<{ path: string; beforeSha256: string | null; afterSha256: string | null }>;
}
