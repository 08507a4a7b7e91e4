/** The transaction tools; published only in modes that allow mutation, shaped by the mode's commit rule. */
import { z } from 'zod';
import type { ApprovalRequesterView, CallContext } from '../../contracts/index.js';
import type { HostCore } from './host-core.js';
import { assertSnapshot } from '../operations/index.js';
import type { CandidateChange } from '../transactions/index.js';
import { defineTool, type HostTool } from './define-tool.js';
import { approvalView, bounded, effectiveLimit, expectedSnapshot, fileDiffView, limit, position, revisionView, snapshotIdentity, transactionSummary, workspaceSelector } from './schemas.js';

const PREVIEW_LIMIT = 200;
const DEFAULT_WAIT_SECONDS = 300;

const textEdit = z.object({ range: z.object({ start: position, end: position }), newText: z.string() });

const change = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('edit'), path: z.string().min(1), edits: z.array(textEdit).min(1).max(1000).describe('Positions refer to the document before this change; edits must not overlap.') }),
  z.object({ kind: z.literal('replace'), path: z.string().min(1), content: z.string() }),
  z.object({ kind: z.literal('create'), path: z.string().min(1), content: z.string() }),
  z.object({ kind: z.literal('delete'), path: z.string().min(1) }),
  z.object({ kind: z.literal('rename'), path: z.string().min(1), newPath: z.string().min(1) }),
]);

const COMMIT_RULE: Record<HostCore['modeRules']['commitRequires'], string> = {
  nothing: 'Commits without review.',
  preview: 'The exact current revision must have been previewed with transaction-preview.',
  receipt: 'Requires the receipt that transaction-review returned for the exact current revision; a receipt is single-use.',
};

/** The calling agent as the approval names it to the operator and the audit trail. */
function requesterOf(ctx: CallContext): ApprovalRequesterView {
  return { agent: ctx.agent, agentName: ctx.agentName ?? ctx.agent, transport: ctx.transport, ...(ctx.scope?.sessionId !== undefined ? { sessionId: ctx.scope.sessionId } : {}) };
}

export function transactionTools(core: HostCore): HostTool[] {
  const { modeRules, registry, transactions } = core;
  const needsReceipt = modeRules.commitRequires === 'receipt';
  const tools: HostTool[] = [
    defineTool({
      name: 'transaction-start',
      title: 'Start transaction',
      description: 'Starts the one transaction a trusted workspace may have; staged changes stay in memory until committed.',
      readOnly: false,
      input: z.object({ workspace: workspaceSelector, expectedSnapshot }),
      output: z.object({ snapshot: snapshotIdentity, transaction: transactionSummary }),
      handler: ({ workspace, expectedSnapshot: expected }) => {
        const w = registry.resolve(workspace);
        const view = transactions.start(w, expected);
        return { snapshot: w.identity(), transaction: { transactionId: view.transactionId, state: view.state, revision: 0, startedAt: view.startedAt } };
      },
    }),
    defineTool({
      name: 'stage-edits',
      title: 'Stage edits',
      description: `Stages changes as the next revision of the active transaction. Changes apply in order; paths are workspace-relative.${modeRules.compilerValidation ? ' Rejected with ValidationFailed when the result adds compiler errors.' : ''}`,
      readOnly: false,
      input: z.object({ workspace: workspaceSelector, expectedSnapshot, summary: z.string().min(1).max(500), changes: z.array(change).min(1).max(1000) }),
      output: z.object({ snapshot: snapshotIdentity, transactionId: z.string(), revision: revisionView }),
      handler: ({ workspace, expectedSnapshot: expected, summary, changes }) =>
        transactions.stage(registry.resolve(workspace).workspaceId, expected, changes as CandidateChange[], summary),
    }),
    defineTool({
      name: 'transaction-preview',
      title: 'Preview transaction',
      description: 'Unified diffs from the transaction\'s base to its head: exactly what a commit writes.',
      readOnly: true,
      input: z.object({
        workspace: workspaceSelector,
        expectedSnapshot: expectedSnapshot.optional(),
        limit: limit(PREVIEW_LIMIT, 2000),
        maxDiffChars: z.number().int().min(100).max(1_000_000).default(100_000).describe('Per-file diff text cap; longer diffs are cut and flagged truncated.'),
      }),
      output: z.object({ snapshot: snapshotIdentity, transactionId: z.string(), revision: z.number().int().min(0), contentHash: z.string(), files: bounded(fileDiffView) }),
      handler: (args) => transactions.preview(registry.resolve(args.workspace), args.expectedSnapshot, effectiveLimit(args.limit, PREVIEW_LIMIT), args.maxDiffChars),
    }),
    defineTool({
      name: 'transaction-commit',
      title: 'Commit transaction',
      description: `Writes the transaction atomically through the recovery journal; fails with ConflictOnDisk, writing nothing, if a file changed on disk since its snapshot. ${COMMIT_RULE[modeRules.commitRequires]}`,
      readOnly: false,
      destructive: true,
      input: needsReceipt
        ? z.object({ workspace: workspaceSelector, expectedSnapshot, receipt: z.string().min(1) })
        : z.object({ workspace: workspaceSelector, expectedSnapshot }),
      output: z.object({
        snapshot: snapshotIdentity,
        transactionId: z.string(),
        manifestId: z.string().nullable(),
        files: z.array(z.object({ path: z.string(), beforeSha256: z.string().nullable(), afterSha256: z.string().nullable() })),
      }),
      handler: (args: { workspace?: string | undefined; expectedSnapshot: z.output<typeof expectedSnapshot>; receipt?: string }) =>
        transactions.commit(registry.resolve(args.workspace), args.expectedSnapshot, args.receipt),
    }),
    defineTool({
      name: 'transaction-rollback',
      title: 'Roll back transaction',
      description: 'Without toRevision abandons the transaction; with it, drops every revision after toRevision (0 returns to the base).',
      readOnly: false,
      destructive: true,
      input: z.object({ workspace: workspaceSelector, expectedSnapshot, toRevision: z.number().int().min(0).optional() }),
      output: z.object({ snapshot: snapshotIdentity, transaction: transactionSummary }),
      handler: ({ workspace, expectedSnapshot: expected, toRevision }) => {
        const w = registry.resolve(workspace);
        assertSnapshot(w, expected);
        const view = transactions.rollback(w, toRevision);
        return { snapshot: w.identity(), transaction: { transactionId: view.transactionId, state: view.state, revision: view.revisions.length, startedAt: view.startedAt } };
      },
    }),
  ];
  if (needsReceipt) {
    tools.push(
      defineTool({
        name: 'transaction-review',
        title: 'Request review',
        description: 'Asks the operator to approve the current revision and waits for the decision (progress is reported while waiting). Approval returns a single-use receipt for transaction-commit; denial fails with ReviewRequired and the reason. The approval\'s compile field (also in the error details) lists the compiler diagnostics the transaction adds in its changed files and their importers.',
        readOnly: false,
        input: z.object({
          workspace: workspaceSelector,
          expectedSnapshot,
          waitSeconds: z.number().int().min(0).max(3600).default(DEFAULT_WAIT_SECONDS).describe('How long to wait for the decision; on timeout the request stays pending and a later call resumes waiting.'),
        }),
        output: z.object({ approval: approvalView, receipt: z.string() }),
        handler: ({ workspace, expectedSnapshot: expected, waitSeconds }, ctx) => {
          const progress = ctx.progress;
          return transactions.review(
            registry.resolve(workspace),
            expected,
            {
              timeoutMs: waitSeconds * 1000,
              signal: ctx.signal,
              ...(progress ? { onTick: (elapsed: number) => progress({ progress: Math.floor(elapsed / 1000), total: waitSeconds, message: 'Waiting for the operator\'s decision' }) } : {}),
            },
            requesterOf(ctx),
          );
        },
      }),
    );
  }
  return tools;
}
