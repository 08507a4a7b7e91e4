/**
 * Structured errors that cross a boundary (MCP result, HTTP body, control API).
 * Codes are a stable contract: clients branch on `code` and `next`, never on `message`.
 */
export const ERROR_CODES = [
  // host / workspace
  'SnapshotMismatch',
  'ActionExpired',
  'ActionAmbiguous',
  'MutationCandidateChanged',
  'TransactionRequired',
  'TransactionActive',
  'ReviewRequired',
  'ReceiptInvalid',
  'ValidationFailed',
  'WorkspaceNotFound',
  'WorkspaceNotTrusted',
  'WorkspaceSelectorRequired',
  'DocumentNotFound',
  'DocumentExists',
  'RangeInvalid',
  'PathOutsideWorkspace',
  'PathNotAllowed',
  'ConflictOnDisk',
  'ModeForbidsMutation',
  'RevisionNotFound',
  'ConcurrentCommit',
  'RecoveryPending',
  'RecoveryVersionUnsupported',
  'StateDirectoryLocked',
  'DiskFull',
  // bridge / MCP
  'PluginUnavailable',
  'PluginReloading',
  'ToolNotFound',
  'ToolFailed',
  'ToolTimeout',
  'InvalidArguments',
  'DuplicateTool',
  'PromptNotFound',
  'ResourceNotFound',
  'Conflict',
  'Overloaded',
  'PayloadTooLarge',
  'RequestTimeout',
  'Unauthorized',
  'Forbidden',
  'InternalError',
  'ConfigInvalid',
  'Starting',
  // MCP extension: nested agent requests, completion, subscriptions
  'CapabilityUnavailable',
  'CallNotActive',
  'InvalidRequest',
  'AgentRequestFailed',
  'TooManyRequests',
  'CompletionRefNotFound',
  'SubscriptionLimit',
  // MCP 2026-07-28 (stateless requests, request headers, input-required results)
  'HeaderMismatch',
  'MissingRequiredClientCapability',
  'UnsupportedProtocolVersion',
  'MethodNotFound',
  'RequestStateInvalid',
  'TaskNotFound',
  // bridge / SignalR hub transport
  'ConnectionNotFound',
  'TransportUnsupported',
  'MethodNotAllowed',
  'ServerClosing',
  // host / approvals
  'ApprovalNotFound',
  // approval policy for every tool call
  'ApprovalDenied',
  'ApprovalTimedOut',
  'PolicyInvalid',
  // audit
  'ReplayRefused',
  // host / code actions
  'ChangeLimitExceeded',
  'ActionUnsupported',
  // bridge / projects (the pin code is McpPlugin.Server's own spelling)
  'invalid_project_pin',
  'ProjectNotConnected',
  'InvalidProjectMetadata',
  'ProjectPinAmbiguous',
  // console
  'ConsoleNotBuilt',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Why a failure happened, independent of transport and of the source that reported it. The kind is a
 * function of the code alone (KIND_BY_CODE), so one code gets one HTTP status and one MCP answer
 * wherever it comes from; error-table.ts maps kinds to both.
 */
export const ERROR_KINDS = ['binding', 'unauthorized', 'forbidden', 'notFound', 'methodNotAllowed', 'conflict', 'tooLarge', 'requestTimeout', 'thrown', 'rateLimited', 'internal', 'unavailable', 'timeout'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export const KIND_BY_CODE: Readonly<Record<ErrorCode, ErrorKind>> = {
  SnapshotMismatch: 'conflict',
  ActionExpired: 'conflict',
  ActionAmbiguous: 'conflict',
  MutationCandidateChanged: 'conflict',
  TransactionRequired: 'conflict',
  TransactionActive: 'conflict',
  ReviewRequired: 'conflict',
  ReceiptInvalid: 'conflict',
  ValidationFailed: 'conflict',
  WorkspaceNotFound: 'notFound',
  WorkspaceNotTrusted: 'forbidden',
  WorkspaceSelectorRequired: 'binding',
  DocumentNotFound: 'notFound',
  DocumentExists: 'conflict',
  RangeInvalid: 'binding',
  PathOutsideWorkspace: 'binding',
  PathNotAllowed: 'binding',
  ConflictOnDisk: 'conflict',
  ModeForbidsMutation: 'conflict',
  RevisionNotFound: 'notFound',
  ConcurrentCommit: 'conflict',
  RecoveryPending: 'conflict',
  RecoveryVersionUnsupported: 'conflict',
  StateDirectoryLocked: 'unavailable',
  DiskFull: 'unavailable',
  PluginUnavailable: 'unavailable',
  PluginReloading: 'unavailable',
  ToolNotFound: 'notFound',
  ToolFailed: 'thrown',
  ToolTimeout: 'timeout',
  InvalidArguments: 'binding',
  DuplicateTool: 'conflict',
  PromptNotFound: 'notFound',
  ResourceNotFound: 'notFound',
  Conflict: 'conflict',
  Overloaded: 'rateLimited',
  PayloadTooLarge: 'tooLarge',
  RequestTimeout: 'requestTimeout',
  Unauthorized: 'unauthorized',
  Forbidden: 'forbidden',
  InternalError: 'internal',
  ConfigInvalid: 'binding',
  Starting: 'unavailable',
  CapabilityUnavailable: 'conflict',
  CallNotActive: 'conflict',
  InvalidRequest: 'binding',
  AgentRequestFailed: 'thrown',
  TooManyRequests: 'rateLimited',
  CompletionRefNotFound: 'notFound',
  SubscriptionLimit: 'binding',
  HeaderMismatch: 'binding',
  MissingRequiredClientCapability: 'binding',
  UnsupportedProtocolVersion: 'binding',
  MethodNotFound: 'notFound',
  RequestStateInvalid: 'binding',
  TaskNotFound: 'notFound',
  ConnectionNotFound: 'notFound',
  TransportUnsupported: 'binding',
  MethodNotAllowed: 'methodNotAllowed',
  ServerClosing: 'unavailable',
  ApprovalNotFound: 'notFound',
  ApprovalDenied: 'forbidden',
  ApprovalTimedOut: 'forbidden',
  PolicyInvalid: 'binding',
  ReplayRefused: 'conflict',
  ChangeLimitExceeded: 'conflict',
  ActionUnsupported: 'conflict',
  invalid_project_pin: 'binding',
  ProjectNotConnected: 'notFound',
  InvalidProjectMetadata: 'binding',
  ProjectPinAmbiguous: 'conflict',
  ConsoleNotBuilt: 'unavailable',
};

/** A structured error with its kind, as a tool outcome carries it. */
export interface ClassifiedError extends StructuredError {
  kind: ErrorKind;
}

/** The error with the kind its code implies. */
export function classify(error: StructuredError): ClassifiedError {
  return { ...error, kind: KIND_BY_CODE[error.code] };
}

export const NEXT_KINDS = ['resolveTargetAgain', 'refreshSnapshot', 'startTransaction', 'requestReview', 'inspectStatus', 'retryLater', 'fixArguments'] as const;
export type NextKind = (typeof NEXT_KINDS)[number];

export interface NextAction {
  kind: NextKind;
  tools: string[];
}

export interface StructuredError {
  code: ErrorCode;
  message: string;
  next?: NextAction;
  /** Machine-readable evidence (file names, diagnostics, limits); shape depends on the code. */
  details?: Record<string, unknown>;
}

export class JunctionError extends Error {
  readonly code: ErrorCode;
  readonly next: NextAction | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: { next?: NextAction; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JunctionError';
    this.code = code;
    this.next = options.next;
    this.details = options.details;
  }

  toStructured(): StructuredError {
    const out: StructuredError = { code: this.code, message: this.message };
    if (this.next) out.next = this.next;
    if (this.details) out.details = this.details;
    return out;
  }
}

export function next(kind: NextKind, ...tools: string[]): NextAction {
  return { kind, tools };
}

export function isJunctionError(value: unknown): value is JunctionError {
  return value instanceof JunctionError;
}

/**
 * File-system failures that are not Junction's fault: a full disk or quota, or a path the caller chose
 * that the file system cannot hold (too long, through a file, a symlink loop).
 */
const CODE_BY_ERRNO: Readonly<Record<string, { code: ErrorCode; next: NextAction }>> = {
  ENOSPC: { code: 'DiskFull', next: next('retryLater') },
  EDQUOT: { code: 'DiskFull', next: next('retryLater') },
  ENAMETOOLONG: { code: 'InvalidArguments', next: next('fixArguments') },
  ENOTDIR: { code: 'InvalidArguments', next: next('fixArguments') },
  ELOOP: { code: 'InvalidArguments', next: next('fixArguments') },
};

export function errnoOf(value: unknown): string | undefined {
  return value instanceof Error && 'code' in value && typeof value.code === 'string' ? value.code : undefined;
}

/** Any thrown value as a structured error; unknown faults become `InternalError` without leaking stacks. */
export function toStructuredError(value: unknown): StructuredError {
  if (value instanceof JunctionError) return value.toStructured();
  const message = value instanceof Error ? value.message : String(value);
  const known = CODE_BY_ERRNO[errnoOf(value) ?? ''];
  if (known) return { code: known.code, message, next: known.next };
  return { code: 'InternalError', message };
}
