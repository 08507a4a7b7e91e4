/** The three code-action tools in the host's tool style; stage-code-action only where the mode allows mutation. */
import { z } from 'zod';
import { defineTool, schemas, type HostTool } from '../tools/index.js';
import type { CodeActionService } from './service.js';

const { workspaceSelector, expectedSnapshot, snapshotIdentity, range, limit, effectiveLimit, bounded, revisionView, location } = schemas;

export const LIST_LIMIT = 50;
export const AFFECTED_DOCUMENTS_LIMIT = 20;
const scope = z.enum(['document', 'project']);

const actionItem = z.object({
  actionId: z.string().describe('Opaque, temporary; bound to this snapshot and consumed by staging.'),
  title: z.string(),
  kind: z.enum(['codeFix', 'refactoring']),
  refactorKind: z.string().optional(),
  location: z.object(location),
  diagnostics: z.array(z.object({ code: z.number().int(), message: z.string() })).optional(),
  fixAllScopes: z.array(scope).optional(),
});

const actionId = z.string().min(1).max(100);

export function codeActionTools(service: CodeActionService, mutations: boolean): HostTool[] {
  const tools: HostTool[] = [
    defineTool({
      name: 'list-code-actions',
      title: 'List code actions',
      description: 'Code fixes and refactorings the TypeScript language service offers in one document, each with a temporary actionId for stage-code-action or prepare-fix-all.',
      readOnly: true,
      input: z.object({
        workspace: workspaceSelector,
        path: z.string().min(1),
        range: range.optional().describe('Omitted: the whole document; equal start and end: a caret; otherwise a selection.'),
        expectedSnapshot,
        kinds: z.enum(['codeFixes', 'refactorings', 'all']),
        diagnosticCodes: z.array(z.number().int().positive()).min(1).max(50).optional().describe('Only code fixes for these TypeScript diagnostic codes, e.g. 6133.'),
        limit: limit(LIST_LIMIT, 500),
      }),
      output: z.object({ snapshot: snapshotIdentity, actions: bounded(actionItem) }),
      handler: (args) => service.list({ ...args, limit: effectiveLimit(args.limit, LIST_LIMIT) }),
    }),
    defineTool({
      name: 'prepare-fix-all',
      title: 'Prepare fix-all',
      description: "Evaluates a code fix across one of its fixAllScopes without changing anything, and returns a new actionId for exactly that operation. Fails with ChangeLimitExceeded above maxChanges edits.",
      readOnly: true,
      input: z.object({
        workspace: workspaceSelector,
        actionId,
        scope,
        maxChanges: z.number().int().min(1).max(100_000).default(50).describe('Most text edits the operation may make.'),
        affectedDocumentsLimit: limit(AFFECTED_DOCUMENTS_LIMIT, 1000),
        expectedSnapshot,
      }),
      output: z.object({
        actionId: z.string(),
        scope,
        changeCount: z.number().int().min(0),
        affectedDocuments: bounded(z.object({ path: z.string(), change: z.enum(['modify', 'create']), edits: z.number().int().min(0) })),
      }),
      handler: (args) => service.prepare({ ...args, affectedDocumentsLimit: effectiveLimit(args.affectedDocumentsLimit, AFFECTED_DOCUMENTS_LIMIT) }),
    }),
  ];
  if (mutations) {
    tools.push(
      defineTool({
        name: 'stage-code-action',
        title: 'Stage code action',
        description: 'Stages one listed action or one prepared fix-all as the next revision of the active transaction. Fails with MutationCandidateChanged if the action no longer produces the same changes.',
        readOnly: false,
        input: z.object({ workspace: workspaceSelector, actionId, expectedSnapshot }),
        output: z.object({ snapshot: snapshotIdentity, transactionId: z.string(), revision: revisionView, title: z.string() }),
        handler: (args) => service.stage(args),
      }),
    );
  }
  return tools;
}
