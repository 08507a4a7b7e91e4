/** Zod pieces shared by the host tools' inputs and outputs. Descriptions say only what names do not. */
import { z } from 'zod';

const count = z.number().int().min(0);

export const workspaceSelector = z
  .string()
  .min(1)
  .optional()
  .describe('Workspace id, root path or folder name. May be omitted when exactly one workspace is open.');

export const snapshotIdentity = z.object({
  workspaceId: z.string(),
  workspaceEpoch: count,
  snapshotId: z.string(),
  transactionRevision: count,
});

export const expectedSnapshot = snapshotIdentity.describe(
  'The snapshot the request was built against, exactly as last returned by the host; a mismatch fails with SnapshotMismatch before any position is read.',
);

export const position = z
  .union([z.object({ offset: count }), z.object({ line: count, column: count })])
  .describe('Zero-based: a UTF-16 offset, or a line and a UTF-16 column within it.');

export const range = z.object({ start: position, end: position });

/** A nullable collection limit with a positive published default; null means the default, 0 returns no items. */
export function limit(defaultValue: number, max: number): z.ZodDefault<z.ZodNullable<z.ZodNumber>> {
  return z.number().int().min(0).max(max).nullable().default(defaultValue);
}

export function effectiveLimit(value: number | null, defaultValue: number): number {
  return value ?? defaultValue;
}

export function bounded<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), hasMore: z.boolean(), totalCount: count.optional() });
}

export const diagnosticView = z.object({
  path: z.string(),
  line: count,
  column: count,
  code: z.string(),
  message: z.string(),
  category: z.enum(['error', 'warning', 'suggestion', 'message']),
});

export const fileDiffView = z.object({
  path: z.string(),
  change: z.enum(['create', 'modify', 'delete', 'rename']),
  previousPath: z.string().optional(),
  diff: z.string(),
  truncated: z.boolean(),
});

export const revisionView = z.object({
  revision: count,
  summary: z.string(),
  stagedAt: z.number(),
  files: z.array(fileDiffView),
  diagnosticsAdded: z.array(diagnosticView),
  diagnosticsRemoved: z.array(diagnosticView),
});

export const approvalView = z.object({
  approvalId: z.string(),
  workspaceId: z.string(),
  transactionId: z.string(),
  revision: count,
  requestedAt: z.number(),
  files: z.array(fileDiffView),
  state: z.enum(['pending', 'approved', 'denied', 'expired']),
  decidedAt: z.number().optional(),
  reason: z.string().optional(),
  compile: z
    .object({
      added: z.array(diagnosticView),
      addedCount: count,
      removedCount: count,
      errorsAdded: count,
      checkedFiles: count,
    })
    .optional()
    .describe('Compiler diagnostics the transaction adds in its changed files and their importers, computed at review time.'),
});

export const recoveryView = z.object({
  stateDir: z.string(),
  healthy: z.boolean(),
  owner: z.object({ instanceId: z.string(), pid: z.number(), startedAt: z.number() }).optional(),
  entries: z.array(
    z.object({
      manifestPath: z.string(),
      transactionId: z.string().optional(),
      workspaceRoot: z.string().optional(),
      formatVersion: z.number().nullable(),
      outcome: z.enum(['completed', 'reverted', 'unsupported', 'clean', 'failed']),
      files: count,
      detail: z.string(),
      at: z.number(),
    }),
  ),
  guidance: z.string().optional(),
});

export const transactionSummary = z.object({
  transactionId: z.string(),
  state: z.enum(['active', 'committed', 'rolledBack']),
  revision: count,
  startedAt: z.number(),
});

export const location = { path: z.string(), start: count, length: count, line: count, column: count };
