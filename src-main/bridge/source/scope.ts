/** Which plugins an agent session sees: its project's (by pin, selection, the only one, the most recent), or every plugin in single routing. */
import { errorOutcome, JunctionError, type AgentScope, type ToolOutcome, type ToolTarget } from '../../contracts/index.js';
import { resolutionError, type ProjectRegistry, type Unresolved } from '../projects/index.js';
import type { PluginRecord } from '../registry/index.js';
import type { SourceContext } from './plugin-port.js';

/** The live plugins of the scope's project (editor first, newest first); none when it resolves to no project. */
export function pluginsFor(projects: ProjectRegistry, scope: AgentScope | undefined): readonly PluginRecord[] {
  if (scope === undefined || projects.mode === 'single') return projects.active();
  const resolution = projects.resolveQuietly(scope);
  return resolution.kind === 'resolved' ? resolution.project.registry.active() : [];
}

/**
 * The plugins whose prompts and resources the agent in `scope` sees: `plugins` less those the
 * visibility rules hide from it, so a hidden plugin's prompt or resource is absent from its lists and
 * answers as an unknown one (PromptNotFound, ResourceNotFound, CompletionRefNotFound).
 */
export function contentOwners(context: SourceContext, scope: AgentScope | undefined, plugins: readonly PluginRecord[]): readonly PluginRecord[] {
  const judge = context.visibility?.current();
  if (scope === undefined || !judge?.hidesAny) return plugins;
  const agentName = scope.agentName ?? 'unknown';
  return plugins.filter((record) => judge.contentVisible({ agentName, target: connectionTarget(context, record.connectionId) }));
}

/** The first item per key; callers pass items in preference order (editor first, newest first). */
export function firstBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) if (!byKey.has(key(item))) byKey.set(key(item), item);
  return [...byKey.values()];
}

/** Why a session's call has no project to go to, as a tool failure naming the project (or the projects a pin could mean). */
export function unresolvedOutcome(resolution: Unresolved): ToolOutcome {
  return errorOutcome(resolutionError(resolution));
}

/** Whether the session asked for a project it cannot have (a pin, a selection), as opposed to there being none at all. */
export function refusesFallThrough(resolution: Unresolved): boolean {
  return resolution.kind !== 'empty';
}

/**
 * The plugins of the scope's project for a request that names one thing (a prompt, a resource, a
 * completion): a pin or selection that resolves to no single project throws its structured error
 * instead of a misleading "not found".
 */
export function pluginsForRequest(projects: ProjectRegistry, scope: AgentScope | undefined): readonly PluginRecord[] {
  if (scope === undefined || projects.mode === 'single') return projects.active();
  const resolution = projects.resolveQuietly(scope);
  if (resolution.kind === 'resolved') return resolution.project.registry.active();
  if (!refusesFallThrough(resolution)) return [];
  throw unresolvedError(resolution);
}

/** The structured error of an unresolved session as a JunctionError, for requests that throw. */
export function unresolvedError(resolution: Unresolved): JunctionError {
  const error = resolutionError(resolution);
  return new JunctionError(error.code, error.message, { ...(error.next ? { next: error.next } : {}), ...(error.details ? { details: error.details } : {}) });
}

/** Who a plugin connection is, as the approval policy matches it (plugin name, project, role) and binds a decision to it (the connection). */
export function connectionTarget(context: SourceContext, connectionId: string): ToolTarget {
  const record = context.projects.get(connectionId);
  if (!record) return { source: 'bridge' };
  return { source: 'bridge', role: record.role, connection: connectionId, ...(record.name ? { plugin: record.name } : {}), ...(record.project ? { project: record.project } : {}) };
}
