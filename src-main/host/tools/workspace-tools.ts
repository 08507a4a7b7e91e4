/** workspace-open, workspace-status, workspace-reload. */
import { z } from 'zod';
import type { HostCore } from './host-core.js';
import type { Workspace } from '../workspace/index.js';
import { defineTool, type HostTool } from './define-tool.js';
import { bounded, effectiveLimit, limit, snapshotIdentity, transactionSummary, workspaceSelector } from './schemas.js';

const workspaceStatus = z.object({
  workspaceId: z.string(),
  root: z.string(),
  name: z.string(),
  trusted: z.boolean(),
  epoch: z.number().int().min(0),
  documentCount: z.number().int().min(0),
  snapshot: snapshotIdentity,
  compilerOptionsFrom: z.enum(['tsconfig.json', 'defaults']),
  configErrors: z.array(z.string()),
  transaction: transactionSummary.nullable(),
});

const STATUS_LIMIT = 20;

export function workspaceTools(core: HostCore): HostTool[] {
  const status = (w: Workspace): z.input<typeof workspaceStatus> => {
    const tx = core.transactions.transactionOf(w.workspaceId);
    return {
      workspaceId: w.workspaceId,
      root: w.root,
      name: w.name,
      trusted: w.trusted,
      epoch: w.epoch,
      documentCount: w.snapshot().size,
      snapshot: w.identity(),
      compilerOptionsFrom: w.projectConfig.source,
      configErrors: w.projectConfig.errors.slice(0, 20),
      transaction: tx ? { transactionId: tx.transactionId, state: tx.state, revision: tx.revision, startedAt: tx.startedAt } : null,
    };
  };
  return [
    defineTool({
      name: 'workspace-open',
      title: 'Open workspace',
      description: 'Opens a directory of TypeScript/JavaScript files (with or without tsconfig.json), or returns it if already open. It is trusted for changes only under a configured trusted root; otherwise the operator must trust it.',
      readOnly: false,
      idempotent: true,
      input: z.object({ root: z.string().min(1).describe('Directory path on the host machine.') }),
      output: z.object({ opened: z.boolean(), workspace: workspaceStatus }),
      handler: async ({ root }) => {
        const { workspace, opened } = await core.openWorkspace(root, { trusted: false });
        return { opened, workspace: status(workspace) };
      },
    }),
    defineTool({
      name: 'workspace-status',
      title: 'Workspace status',
      description: 'The current snapshot identity of a workspace (or of every open workspace when none is selected), its trust and active transaction.',
      readOnly: true,
      input: z.object({ workspace: workspaceSelector.describe('Workspace id, root path or folder name; omit to list every open workspace.'), limit: limit(STATUS_LIMIT, 500) }),
      output: bounded(workspaceStatus),
      handler: ({ workspace, limit: requested }) => {
        const all = workspace === undefined ? core.registry.list() : [core.registry.resolve(workspace)];
        const n = effectiveLimit(requested, STATUS_LIMIT);
        return { items: all.slice(0, n).map(status), hasMore: all.length > n, totalCount: all.length };
      },
    }),
    defineTool({
      name: 'workspace-reload',
      title: 'Reload workspace',
      description: 'Re-reads the workspace from disk and bumps its epoch; every earlier snapshot identity becomes stale. An active transaction keeps its staged revisions.',
      readOnly: true,
      input: z.object({ workspace: workspaceSelector }),
      output: z.object({ workspace: workspaceStatus }),
      handler: async ({ workspace }) => {
        const w = core.registry.resolve(workspace);
        await w.reload(true);
        return { workspace: status(w) };
      },
    }),
  ];
}
