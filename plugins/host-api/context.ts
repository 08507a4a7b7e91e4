/**
 * The execution context the host builds for each invocation. Query and mutation contexts expose the
 * same read-only capabilities; neither exposes a writer or stager: a mutation proposes changes by
 * returning them.
 */
import type { QueryResultCache } from './cache.js';
import type { AnalysisServices } from './services.js';
import type { SnapshotView, WorkspaceResolver } from './snapshot.js';

export interface ToolExecutionContext {
  readonly snapshot: SnapshotView;
  readonly resolver: WorkspaceResolver;
  readonly services: AnalysisServices;
  readonly cache: QueryResultCache;
  /** Aborted when the caller cancels; long loops should check it. */
  readonly signal: AbortSignal;
  /** A compatibility baseline for limits, not a substitute for a published per-tool default. */
  readonly defaultMaxResults: number;
}

export type QueryContext = ToolExecutionContext;
export type MutationContext = ToolExecutionContext;
