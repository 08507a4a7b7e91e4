/**
 * Publishes the enabled plugins' tools as one ToolSource. A call binds its arguments, acquires a read-only
 * context from the host's factory, runs the handler with a fresh query cache, and either returns the
 * admitted query response or hands the mutation candidate to the host's stage function. Plugins never see
 * the stager, a writer or any host object beyond the context.
 */
import { z } from 'zod';
import { isJunctionError, JunctionError, next, type StructuredError, errorOutcome, successOutcome, type CallContext, type ToolDescriptor, type ToolOutcome, type ToolSource } from '../../contracts/index.js';
import type {
  AnalysisServices,
  CandidateChange,
  MutationHandler,
  QueryHandler,
  SnapshotIdentity,
  SnapshotView,
  ToolExecutionContext,
  WorkspaceResolver,
} from '../../../plugins/host-api/index.js';
import { callScopedSignal, errorMessage } from '../../shared/index.js';
import { bindArguments } from './binding.js';
import type { PluginCatalogue } from './catalogue.js';
import type { PluginDiagnostic } from './diagnostics.js';
import type { ToolKind } from './host-envelope.js';
import { createQueryCache } from './query-cache.js';
import type { ValidatedTool } from './validate-definition.js';

export interface PluginContextRequest {
  pluginId: string;
  tool: string;
  kind: ToolKind;
  workspace?: string;
  /** When present the factory must fail with SnapshotMismatch unless it names the current snapshot. */
  expectedSnapshot?: SnapshotIdentity;
  signal: AbortSignal;
}

/** The host-side parts of an execution context; the tool source adds the cache and cancellation. */
export interface PluginHostContext {
  snapshot: SnapshotView;
  resolver: WorkspaceResolver;
  services: AnalysisServices;
  /** Called once the invocation is over, successful or not. */
  release?: () => void;
}

export type PluginContextFactory = (request: PluginContextRequest) => Promise<PluginHostContext>;

export interface PluginStageRequest {
  pluginId: string;
  tool: string;
  workspace?: string;
  expectedSnapshot: SnapshotIdentity;
  changes: readonly CandidateChange[];
  summary: string;
}

/** Stages a candidate through the active transaction; resolves to the structured result agents receive. */
export type PluginStageFunction = (request: PluginStageRequest) => Promise<Record<string, unknown>>;

export interface PluginToolSourceOptions {
  catalogue: PluginCatalogue;
  createContext: PluginContextFactory;
  stage: PluginStageFunction;
  outputSchema?: 'publish' | 'omit';
  defaultMaxResults?: number;
  /** False in inspection-only mode: mutation tools are then neither listed nor callable. */
  mutationsEnabled?: () => boolean;
}

export interface PluginToolSource extends ToolSource {
  pluginDiagnostics(): PluginDiagnostic[];
  /** Call after anything `mutationsEnabled` reads has changed (e.g. the mode). */
  notifyToolsChanged(): void;
}

const candidateSchema = z.object({
  candidate: z
    .array(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('write'), path: z.string().min(1), text: z.string() }),
        z.object({ kind: z.literal('delete'), path: z.string().min(1) }),
      ]),
    )
    .refine((changes) => new Set(changes.map((c) => c.path)).size === changes.length, 'each path may appear in the candidate only once'),
  summary: z.string().trim().min(1).max(500),
});

function pluginFault(tool: ValidatedTool, what: string, details?: Record<string, unknown>): JunctionError {
  return new JunctionError('ToolFailed', `Plugin '${tool.pluginId}' tool '${tool.name}' ${what}`, details ? { details } : {});
}

function failed(error: unknown, tool: ValidatedTool): ToolOutcome {
  if (isJunctionError(error)) return errorOutcome(error.toStructured());
  const message = errorMessage(error);
  const structured: StructuredError = pluginFault(tool, `threw: ${message}`).toStructured();
  return errorOutcome(structured);
}

function describe(tool: ValidatedTool, publishOutput: boolean): ToolDescriptor {
  const descriptor: ToolDescriptor = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as ToolDescriptor['inputSchema'],
    annotations: { readOnlyHint: tool.kind === 'query', destructiveHint: false, openWorldHint: false },
    _meta: { 'junction/source': `plugin:${tool.pluginId}` },
  };
  if (publishOutput && tool.outputSchema) descriptor.outputSchema = tool.outputSchema as ToolDescriptor['outputSchema'];
  return descriptor;
}

async function runQuery(tool: ValidatedTool, request: unknown, context: ToolExecutionContext): Promise<ToolOutcome> {
  const response = await (tool.handler as QueryHandler<unknown, unknown>).handle(request, context);
  const admitted = tool.response!.safeParse(response);
  if (!admitted.success) {
    throw pluginFault(tool, 'returned a response that does not match its response schema', { issues: admitted.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) });
  }
  return successOutcome(admitted.data as Record<string, unknown>);
}

export function createPluginToolSource(options: PluginToolSourceOptions): PluginToolSource {
  const listeners = new Set<() => void>();
  const mutationsEnabled = options.mutationsEnabled ?? (() => true);
  const publishOutput = (options.outputSchema ?? 'publish') === 'publish';
  const defaultMaxResults = options.defaultMaxResults ?? 100;

  const visible = (tool: ValidatedTool) => tool.kind === 'query' || mutationsEnabled();

  async function runMutation(tool: ValidatedTool, request: unknown, context: ToolExecutionContext, expectedSnapshot: SnapshotIdentity, workspace: string | undefined): Promise<ToolOutcome> {
    const result = await (tool.handler as MutationHandler<unknown>).handle(request, context);
    const admitted = candidateSchema.safeParse(result);
    if (!admitted.success) {
      throw pluginFault(tool, 'returned an invalid mutation result', { issues: admitted.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) });
    }
    // Nothing to change is an answer, not a revision: the transaction is left untouched.
    if (admitted.data.candidate.length === 0) return successOutcome({ staged: false, summary: admitted.data.summary });
    const stageRequest: PluginStageRequest = { pluginId: tool.pluginId, tool: tool.name, expectedSnapshot, changes: admitted.data.candidate, summary: admitted.data.summary };
    if (workspace) stageRequest.workspace = workspace;
    return successOutcome(await options.stage(stageRequest));
  }

  async function invoke(tool: ValidatedTool, args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutcome> {
    const bound = bindArguments(tool, args);
    const scoped = callScopedSignal(ctx.signal);
    try {
      return await invokeWith(tool, bound, scoped.signal);
    } finally {
      scoped.release();
    }
  }

  async function invokeWith(tool: ValidatedTool, bound: ReturnType<typeof bindArguments>, signal: AbortSignal): Promise<ToolOutcome> {
    const request: PluginContextRequest = { pluginId: tool.pluginId, tool: tool.name, kind: tool.kind, signal };
    if (bound.envelope.workspace) request.workspace = bound.envelope.workspace;
    if (bound.envelope.expectedSnapshot) request.expectedSnapshot = bound.envelope.expectedSnapshot;
    const host = await options.createContext(request);
    try {
      const context: ToolExecutionContext = Object.freeze({
        snapshot: host.snapshot,
        resolver: host.resolver,
        services: host.services,
        cache: createQueryCache(signal),
        signal,
        defaultMaxResults,
      });
      if (tool.kind === 'query') return await runQuery(tool, bound.request, context);
      return await runMutation(tool, bound.request, context, bound.envelope.expectedSnapshot!, bound.envelope.workspace);
    } finally {
      host.release?.();
    }
  }

  return {
    id: 'plugins',
    listTools: () => [...options.catalogue.tools.values()].filter(visible).map((tool) => describe(tool, publishOutput)),
    async callTool(name, args, ctx) {
      const tool = options.catalogue.tools.get(name);
      if (!tool || !visible(tool)) {
        return errorOutcome(new JunctionError('ToolNotFound', `No plugin tool named '${name}' is published.`, { next: next('inspectStatus', 'server-status') }).toStructured());
      }
      try {
        return await invoke(tool, args, ctx);
      } catch (error) {
        return failed(error, tool);
      }
    },
    targetOf(name) {
      const owner = options.catalogue.plugins.find((p) => p.tools.some((t) => t.name === name));
      return { source: 'plugin', plugin: owner?.id ?? 'unknown' };
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pluginDiagnostics: () => options.catalogue.pluginDiagnostics(),
    notifyToolsChanged() {
      for (const listener of [...listeners]) listener();
    },
  };
}
