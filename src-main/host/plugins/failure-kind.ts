/** Which transport-independent failure kind a structured error code maps to (HTTP status, console colour). */
import type { ErrorCode, FailureKind } from '../../contracts/index.js';

const KIND_BY_CODE: Partial<Record<ErrorCode, FailureKind>> = {
  InvalidArguments: 'binding',
  RangeInvalid: 'binding',
  PathOutsideWorkspace: 'binding',
  PathNotAllowed: 'binding',
  WorkspaceSelectorRequired: 'binding',
  WorkspaceNotFound: 'notFound',
  DocumentNotFound: 'notFound',
  ToolNotFound: 'notFound',
  RevisionNotFound: 'notFound',
  SnapshotMismatch: 'conflict',
  ActionExpired: 'conflict',
  ActionAmbiguous: 'conflict',
  MutationCandidateChanged: 'conflict',
  TransactionRequired: 'conflict',
  TransactionActive: 'conflict',
  ReviewRequired: 'conflict',
  ConflictOnDisk: 'conflict',
  ConcurrentCommit: 'conflict',
  DocumentExists: 'conflict',
  ModeForbidsMutation: 'conflict',
  Conflict: 'conflict',
  PluginUnavailable: 'unavailable',
  Overloaded: 'unavailable',
  ToolTimeout: 'timeout',
  DiskFull: 'unavailable',
  InternalError: 'internal',
};

export function failureKindOf(code: ErrorCode): FailureKind {
  return KIND_BY_CODE[code] ?? 'thrown';
}
