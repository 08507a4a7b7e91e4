/**
 * What a reference remembers about an action: enough to find exactly that action again in the same
 * snapshot, plus the checksum of the changes it produced when it was discovered or prepared.
 */
export interface DiagnosticRef {
  code: number;
  start: number;
  length: number;
  message: string;
}

export interface CodeFixDescriptor {
  kind: 'codeFix';
  path: string;
  fixName: string;
  description: string;
  fixId?: string;
  fixAllDescription?: string;
  diagnostic: DiagnosticRef;
  /** fingerprintFileChanges of the fix's changes when listed. */
  fingerprint: string;
}

export interface RefactorDescriptor {
  kind: 'refactoring';
  path: string;
  start: number;
  end: number;
  refactorName: string;
  actionName: string;
  description: string;
  refactorKind?: string;
  fingerprint: string;
}

export type FixAllScope = 'document' | 'project';

export interface PreparedFixAllDescriptor {
  kind: 'fixAll';
  origin: CodeFixDescriptor & { fixId: string };
  scope: FixAllScope;
  maxChanges: number;
  /** Checksum of the normalised operation (paths, change kinds, content checksums). */
  checksum: string;
}

export type ActionDescriptor = CodeFixDescriptor | RefactorDescriptor | PreparedFixAllDescriptor;
