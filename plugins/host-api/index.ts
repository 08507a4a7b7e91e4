/** The in-process plugin API (V1): everything a plugin author compiles against, and nothing of the host. */
export { PLUGIN_API_V1, type PluginApiVersion } from './version.js';
export type { SnapshotIdentity, DocumentView, SnapshotView, ResolvedLocation, WorkspaceResolver } from './snapshot.js';
export type { ReferenceOccurrence, ReferenceDiscoveryService, TypeHierarchyEntry, TypeHierarchyService, AnalysisServices } from './services.js';
export type { QueryCacheKey, QueryCacheOptions, QueryResultCache } from './cache.js';
export type { ToolExecutionContext, QueryContext, MutationContext } from './context.js';
export type { CandidateChange, MutationResult } from './mutation.js';
export { boundedCollection, effectiveLimit, limitSchema, boundedCollectionSchema, type BoundedCollection } from './bounded.js';
export {
  definePlugin,
  defineQueryTool,
  defineMutationTool,
  type PluginDefinition,
  type QueryToolDefinition,
  type MutationToolDefinition,
  type QueryHandler,
  type MutationHandler,
} from './definition.js';
