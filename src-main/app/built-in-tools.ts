/**
 * The tool sources Junction publishes itself, in catalogue order: host tools, code actions, then the
 * in-process plugins of a configured directory. The baselines in test/baselines record the first two
 * exactly as this builds them; plugin tools belong to their publishers and are left out.
 */
import { createCodeActions } from '../host/code-actions/index.js';
import { modePolicy, type Host, type HostMode, type OutputSchemaPublication } from '../host/index.js';
import { createPluginToolSource, hostPluginBindings, loadPlugins } from '../host/plugins/index.js';
import type { ToolSource } from '../contracts/index.js';

export interface BuiltInToolOptions {
  mode: HostMode;
  toolOutputSchema: OutputSchemaPublication;
  codeActionReferenceLifetimeMs?: number;
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

export async function inProcessPluginSource(host: Host, builtIn: readonly ToolSource[], options: BuiltInToolOptions & { directory: string }): Promise<ToolSource> {
  const catalogue = await loadPlugins({ directory: options.directory, reservedToolNames: builtIn.flatMap((s) => s.listTools().map((t) => t.name)) });
  const policy = modePolicy(options.mode);
  const plugins = createPluginToolSource({ catalogue, ...hostPluginBindings(host), outputSchema: options.toolOutputSchema, mutationsEnabled: () => policy.mutations });
  host.provideStatus('plugins', () => plugins.pluginDiagnostics());
  return plugins;
}
