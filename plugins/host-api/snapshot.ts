/**
 * What a plugin may see of the workspace: one immutable snapshot, read-only. Paths are POSIX,
 * workspace-relative; offsets are zero-based UTF-16 code units, as everywhere in Junction.
 */
export interface SnapshotIdentity {
  readonly workspaceId: string;
  readonly workspaceEpoch: number;
  readonly snapshotId: string;
  readonly transactionRevision: number;
}

export interface DocumentView {
  readonly path: string;
  readonly text: string;
  /** sha256 of the UTF-8 text: equal checksums mean equal content. */
  readonly sha256: string;
}

export interface SnapshotView {
  /** The complete authoritative identity of the state this invocation reads. */
  readonly identity: SnapshotIdentity;
  /** Every document path, sorted. */
  paths(): readonly string[];
  /** The document, or undefined when the snapshot holds no such path. */
  document(path: string): DocumentView | undefined;
}

/** A position proven to exist in one snapshot; carries that snapshot's identity so it cannot drift. */
export interface ResolvedLocation {
  readonly snapshot: SnapshotIdentity;
  readonly path: string;
  readonly offset: number;
  /** Zero-based line and UTF-16 column. */
  readonly line: number;
  readonly column: number;
}

/**
 * Resolves agent-supplied selectors against the invocation's snapshot. Failures are structured host errors
 * (`PathOutsideWorkspace`, `DocumentNotFound`, `RangeInvalid`) that the host passes to the agent unchanged.
 */
export interface WorkspaceResolver {
  /** The normalised path of an existing document. */
  resolvePath(path: string): string;
  resolveOffset(path: string, offset: number): ResolvedLocation;
  resolveLineColumn(path: string, line: number, column: number): ResolvedLocation;
}
