/**
 * Assembles validated plugins into one catalogue: plugin ids are unique, and a tool name is published by
 * at most one source. A later plugin (in load order) that collides is disabled whole. Pure: no I/O.
 */
import type { PluginDiagnostic } from './diagnostics.js';
import type { ValidatedPlugin, ValidatedTool, ValidationOutcome } from './validate-definition.js';

export interface PluginCatalogue {
  /** Enabled plugins only, in load order. */
  readonly plugins: readonly ValidatedPlugin[];
  /** Published tools by name. */
  readonly tools: ReadonlyMap<string, ValidatedTool>;
  pluginDiagnostics(): PluginDiagnostic[];
}

function disable(diagnostic: PluginDiagnostic): void {
  diagnostic.enabled = false;
  diagnostic.tools = [];
}

/** `reservedToolNames` are names other sources (the host) already publish. */
export function assembleCatalogue(outcomes: readonly ValidationOutcome[], reservedToolNames: Iterable<string> = []): PluginCatalogue {
  const reserved = new Set(reservedToolNames);
  const ids = new Set<string>();
  const tools = new Map<string, ValidatedTool>();
  const plugins: ValidatedPlugin[] = [];
  const diagnostics: PluginDiagnostic[] = [];

  for (const outcome of outcomes) {
    const diagnostic = structuredClone(outcome.diagnostic);
    diagnostics.push(diagnostic);
    const plugin = outcome.plugin;
    if (!plugin) continue;
    if (ids.has(plugin.id)) diagnostic.errors.push({ category: 'id', message: `another module (loaded earlier) already uses the plugin id '${plugin.id}'` });
    for (const tool of plugin.tools) {
      if (reserved.has(tool.name)) diagnostic.errors.push({ category: 'duplicateTool', tool: tool.name, message: `'${tool.name}' is already a host tool` });
      const owner = tools.get(tool.name);
      if (owner) diagnostic.errors.push({ category: 'duplicateTool', tool: tool.name, message: `'${tool.name}' is already published by plugin '${owner.pluginId}'` });
    }
    if (diagnostic.errors.length > 0) {
      disable(diagnostic);
      continue;
    }
    ids.add(plugin.id);
    for (const tool of plugin.tools) tools.set(tool.name, tool);
    plugins.push(plugin);
  }

  return {
    plugins,
    tools,
    pluginDiagnostics: () => structuredClone(diagnostics),
  };
}
