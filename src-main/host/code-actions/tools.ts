/**
 * The three code-action tools in the host's tool style; stage-code-action only where the mode allows
 * mutation. The wire speaks the published contract's names (CodeFixes, Document, TS6133, providers);
 * this adapter maps them to the service's and back.
 */
import { typescript } from '../workspace/index.js';
import { z } from 'zod';
import { defineTool, schemas, type HostTool } from '../tools/index.js';
import type { FixAllScope } from './descriptors.js';
import type { DiscoveryKinds } from './discovery.js';
import type { CodeActionService, ListedAction } from './service.js';

const { workspaceSelector, expectedSnapshot, snapshotIdentity, range, limit, effectiveLimit, bounded, revisionView, location } = schemas;

export const LIST_LIMIT = 50;
export const AFFECTED_DOCUMENTS_LIMIT = 20;

const KINDS: Record<'CodeFixes' | 'Refactorings' | 'Both', DiscoveryKinds> = { CodeFixes: 'codeFixes', Refactorings: 'refactorings', Both: 'all' };
// A workspace is one TypeScript program, so a Solution covers exactly the files of its one Project.
const SCOPES: Record<'Document' | 'Project' | 'Solution', FixAllScope> = { Document: 'document', Project: 'project', Solution: 'project' };
const WIRE_SCOPES: Record<FixAllScope, Array<keyof typeof SCOPES>> = { document: ['Document'], project: ['Project', 'Solution'] };
const scope = z.enum(['Document', 'Project', 'Solution']);
const diagnosticId = z.string().regex(/^(TS)?\d+$/i, 'a TypeScript diagnostic id such as TS6133');

const actionItem = z.object({
  actionId: z.string().describe('Opaque, temporary; bound to this snapshot and consumed by staging.'),
  title: z.string(),
  kind: z.enum(['codeFix', 'refactoring']),
  refactorKind: z.string().optional(),
  location: z.object(location),
  diagnostics: z.array(z.object({ id: z.string(), message: z.string() })).optional(),
  fixAllScopes: z.array(scope).optional(),
  providerId: z.string().optional().describe('Only with includeProvenance: a key into this response\'s providers.'),
});
const provider = z.object({ name: z.string(), package: z.string(), version: z.string() });

/** Items in wire form; with provenance, each names a response-local provider key. */
function wireActions(items: readonly ListedAction[], includeProvenance: boolean) {
  const providers: Record<string, z.infer<typeof provider>> = {};
  const keyOf = new Map<string, string>();
  const wire = items.map(({ provider: name, diagnostics, fixAllScopes, ...item }) => {
    let providerId: string | undefined;
    if (includeProvenance) {
      providerId = keyOf.get(name);
      if (!providerId) {
        providerId = `p${keyOf.size + 1}`;
        keyOf.set(name, providerId);
        providers[providerId] = { name, package: 'typescript', version: typescript().version };
      }
    }
    return {
      ...item,
      ...(diagnostics ? { diagnostics: diagnostics.map((d) => ({ id: `TS${d.code}`, message: d.message })) } : {}),
      ...(fixAllScopes ? { fixAllScopes: fixAllScopes.flatMap((s) => WIRE_SCOPES[s]) } : {}),
      ...(providerId ? { providerId } : {}),
    };
  });
  return { items: wire, providers: includeProvenance ? providers : undefined };
}

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
        document: z.object({ path: z.string().min(1).describe('Workspace-relative path.') }),
        range: range.optional().describe('Omitted: the whole document; equal start and end: a caret; otherwise a selection.'),
        expectedSnapshot,
        kinds: z.enum(['CodeFixes', 'Refactorings', 'Both']),
        diagnosticIds: z.array(diagnosticId).min(1).max(50).optional().describe('Only code fixes for these diagnostics, e.g. TS6133.'),
        includeProvenance: z.boolean().default(false).describe('Name each action\'s provider (response-level providers), for audit.'),
        limit: limit(LIST_LIMIT, 500),
      }),
      output: z.object({ snapshot: snapshotIdentity, actions: bounded(actionItem), providers: z.record(z.string(), provider).optional() }),
      handler: (args) => {
        const listed = service.list({
          ...(args.workspace !== undefined ? { workspace: args.workspace } : {}),
          path: args.document.path,
          ...(args.range ? { range: args.range } : {}),
          expectedSnapshot: args.expectedSnapshot,
          kinds: KINDS[args.kinds],
          ...(args.diagnosticIds ? { diagnosticCodes: args.diagnosticIds.map((id) => Number(id.replace(/^TS/i, ''))) } : {}),
          limit: effectiveLimit(args.limit, LIST_LIMIT),
        });
        const { items, providers } = wireActions(listed.actions.items, args.includeProvenance);
        return { snapshot: listed.snapshot, actions: { items, hasMore: listed.actions.hasMore }, ...(providers ? { providers } : {}) };
      },
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
      handler: (args) => ({
        ...service.prepare({ ...args, scope: SCOPES[args.scope], affectedDocumentsLimit: effectiveLimit(args.affectedDocumentsLimit, AFFECTED_DOCUMENTS_LIMIT) }),
        scope: args.scope,
      }),
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
