/**
 * The host as a part of a running Junction: workspaces, transactions and approvals, the tool sources
 * it publishes itself in catalogue order (host tools, code actions, then the in-process plugins of a
 * configured directory), the console's views and commands over them, and its events on the console's
 * stream. The baselines in test/baselines record the first two sources exactly as this builds them.
 * A sub-room of its own rather than a line in the host's door: code actions and in-process plugins
 * import that door, so the door exporting what composes them would be an import cycle.
 */
import type { ControlCommandHandlers, ApprovalView, ControlEvent, ToolSource, WorkspaceView } from '../../contracts/index.js';
import { createCodeActions } from '../code-actions/index.js';
import { createPluginToolSource, hostPluginBindings, loadPlugins } from '../plugins/index.js';
import { createHost, modePolicy, type Host, type HostJournal, type HostLogger, type HostMode, type OutputSchemaPublication } from '../index.js';

export interface BuiltInToolOptions {
  mode: HostMode;
  toolOutputSchema: OutputSchemaPublication;
  codeActionReferenceLifetimeMs?: number;
}

export interface HostMountContext extends BuiltInToolOptions {
  journal: HostJournal;
  /** Workspaces under these directories are trusted (the configured ones). */
  trustedRoots: readonly string[];
  /** In-process plugins to load, if any. */
  pluginsDir?: string | undefined;
  logger: HostLogger;
  /** The console's event stream. */
  control: { publish(event: ControlEvent): unknown };
}

export interface MountedHost {
  host: Host;
  /** Host tools, code actions, then in-process plugins. */
  toolSources: ToolSource[];
  views: { workspaces(): WorkspaceView[]; approvals(): ApprovalView[] };
  commands: ControlCommandHandlers<'approve' | 'deny' | 'openWorkspace' | 'rollback'>;
  dispose(): void;
}

export function builtInToolSources(host: Host, options: BuiltInToolOptions): ToolSource[] {
  const codeActions = createCodeActions(host, {
    mode: options.mode,
    toolOutputSchema: options.toolOutputSchema,
    ...(options.codeActionReferenceLifetimeMs !== undefined ? { referenceLifetimeMs: options.codeActionReferenceLifetimeMs } : {}),
  });
  host.provideStatus('codeActions', () => codeActions.status());
  return [host.toolSource, codeActions.toolSource];
}

async function inProcessPluginSource(host: Host, builtIn: readonly ToolSource[], options: BuiltInToolOptions & { directory: string }): Promise<ToolSource> {
  const catalogue = await loadPlugins({ directory: options.directory, reservedToolNames: builtIn.flatMap((s) => s.listTools().map((t) => t.name)) });
  const policy = modePolicy(options.mode);
  const plugins = createPluginToolSource({ catalogue, ...hostPluginBindings(host), outputSchema: options.toolOutputSchema, mutationsEnabled: () => policy.mutations });
  host.provideStatus('plugins', () => plugins.pluginDiagnostics());
  return plugins;
}

export async function mountHost(context: HostMountContext): Promise<MountedHost> {
  const { control } = context;
  const host = createHost({ mode: context.mode, toolOutputSchema: context.toolOutputSchema, journal: context.journal, trustedRoots: context.trustedRoots, logger: context.logger });
  const offs = [
    host.events.on('workspace.updated', (event) => control.publish(event)),
    host.events.on('approval.requested', (event) => control.publish(event)),
    host.events.on('approval.decided', (event) => control.publish(event)),
  ];
  const dispose = () => {
    for (const off of offs) off();
    host.close();
  };
  try {
    const builtIn = builtInToolSources(host, context);
    const inProcess = context.pluginsDir ? [await inProcessPluginSource(host, builtIn, { ...context, directory: context.pluginsDir })] : [];
    return {
      host,
      toolSources: [...builtIn, ...inProcess],
      views: { workspaces: () => host.workspaces(), approvals: () => host.approvals.pending() },
      commands: {
        approve: ({ approvalId }) => host.approvals.decide(approvalId, 'approve'),
        deny: ({ approvalId, reason }) => host.approvals.decide(approvalId, 'deny', reason),
        openWorkspace: ({ root, trusted }) => host.openWorkspace(root, { trusted }),
        rollback: ({ workspaceId, toRevision }) => host.rollback(workspaceId, toRevision),
      },
      dispose,
    };
  } catch (error) {
    dispose();
    throw error;
  }
}

/**
 * Opens the configured workspaces (trusted), each after removing the temp files a failed commit left
 * in it; `opened` counts them for readiness.
 */
export async function openConfiguredWorkspaces(
  host: Host,
  roots: readonly string[],
  options: { sweepTemps(root: string): Promise<number>; logger: HostLogger; opened(): void },
): Promise<void> {
  for (const root of roots) {
    const swept = await options.sweepTemps(root);
    if (swept > 0) options.logger.warn(`recovery: removed ${swept} temp files a failed commit left in ${root}`);
    await host.openWorkspace(root, { trusted: true });
    options.opened();
  }
}
