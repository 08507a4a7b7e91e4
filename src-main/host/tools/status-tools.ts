/** server-status and recovery-status: what the host is and how its parts are doing. */
import { z } from 'zod';
import type { HostCore } from './host-core.js';
import { defineTool, type HostTool } from './define-tool.js';
import { recoveryView } from './schemas.js';
import { errorMessage } from '../../shared/index.js';

const components = z.object({
  workspaces: z.number().int().min(0),
  activeTransactions: z.number().int().min(0),
  pendingApprovals: z.number().int().min(0),
  recovery: z.object({ healthy: z.boolean(), entries: z.number().int().min(0) }),
});

export function statusTools(core: HostCore): HostTool[] {
  return [
    defineTool({
      name: 'server-status',
      title: 'Server status',
      description: 'Mode, components and their health. Full adds the recovery journal, open workspaces and provider sections (plugin catalogue diagnostics, excluded code-action providers).',
      readOnly: true,
      input: z.object({ detail: z.enum(['Summary', 'Full']).default('Summary') }),
      output: z.object({
        mode: z.string(),
        toolOutputSchema: z.enum(['publish', 'omit']),
        mutations: z.boolean(),
        commitRequires: z.enum(['nothing', 'preview', 'receipt']),
        components,
        recovery: recoveryView.optional(),
        workspaces: z.array(z.object({ workspaceId: z.string(), root: z.string(), name: z.string(), trusted: z.boolean(), epoch: z.number().int() })).optional(),
        providers: z.record(z.string(), z.unknown()).optional(),
      }),
      handler: ({ detail }, ctx) => {
        const recovery = core.journal.status();
        const workspaces = core.registry.list();
        const base = {
          mode: core.modeRules.mode,
          toolOutputSchema: core.outputSchema,
          mutations: core.modeRules.mutations,
          commitRequires: core.modeRules.commitRequires,
          components: {
            workspaces: workspaces.length,
            activeTransactions: workspaces.filter((w) => core.transactions.transactionOf(w.workspaceId)).length,
            pendingApprovals: core.desk.pending().length,
            recovery: { healthy: recovery.healthy, entries: recovery.entries.length },
          },
        };
        if (detail === 'Summary') return base;
        const providers: Record<string, unknown> = {};
        for (const [name, provide] of core.statusProviders) {
          try {
            providers[name] = provide(ctx.scope);
          } catch (error) {
            providers[name] = { error: errorMessage(error) };
          }
        }
        return {
          ...base,
          recovery,
          workspaces: workspaces.map((w) => ({ workspaceId: w.workspaceId, root: w.root, name: w.name, trusted: w.trusted, epoch: w.epoch })),
          providers,
        };
      },
    }),
    defineTool({
      name: 'recovery-status',
      title: 'Recovery status',
      description: 'The commit journal: its owner and what recovery did with each interrupted commit found at start.',
      readOnly: true,
      input: z.object({}),
      output: recoveryView,
      handler: () => core.journal.status(),
    }),
  ];
}
