/** The in-process plugin host: loading, validation, diagnostics and the ToolSource that publishes plugin tools. */
export { loadPlugins, listPluginModules, type LoadPluginsOptions } from './loader.js';
export { assembleCatalogue, type PluginCatalogue } from './catalogue.js';
export { validatePluginDefinition, MAX_INPUT_SCHEMA_BYTES, type ValidatedPlugin, type ValidatedTool, type ValidationOutcome } from './validate-definition.js';
export type { PluginDiagnostic, PluginIssue, PluginErrorCategory, PluginWarningCategory } from './diagnostics.js';
export {
  createPluginToolSource,
  type PluginToolSource,
  type PluginToolSourceOptions,
  type PluginContextFactory,
  type PluginContextRequest,
  type PluginHostContext,
  type PluginStageFunction,
  type PluginStageRequest,
} from './plugin-tool-source.js';
export { createQueryCache, canonicalCacheKey } from './query-cache.js';
export { redirectConsoleToStderr } from './console-redirect.js';
export { snapshotIdentitySchema, workspaceSelectorSchema, RESERVED_PROPERTIES } from './host-envelope.js';
export { createSnapshotView, createResolver, type SnapshotSource } from './context/snapshot-view.js';
export { createAnalysisServices, type AnalysisSource } from './context/analysis-services.js';
export { hostPluginBindings, type HostPluginBindings } from './host-bindings.js';
