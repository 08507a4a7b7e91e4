/** Which plugins an agent session sees: its project's (by pin, selection, the only one, the most recent), or every plugin in single routing. */
import { errorOutcome, type AgentScope, type ToolOutcome } from '../../contracts/index.js';
import type { ProjectRegistry, ProjectResolution } from '../projects/index.js';
import type { PluginRecord } from '../registry/index.js';

/** The live plugins of the scope's project (editor first, newest first); none when it resolves to no project. */
export function pluginsFor(projects: ProjectRegistry, scope: AgentScope | undefined): PluginRecord[] {
  if (scope === undefined || projects.mode === 'single') return projects.active();
  const resolution = projects.resolveQuietly(scope);
  return resolution.kind === 'resolved' ? resolution.project.registry.active() : [];
}

/** The first item per key; callers pass items in preference order (editor first, newest first). */
export function firstBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) if (!byKey.has(key(item))) byKey.set(key(item), item);
  return [...byKey.values()];
}

/** Why a session's call has no project to go to, as a tool failure naming the project. */
export function unresolvedOutcome(resolution: Exclude<ProjectResolution, { kind: 'resolved' }>): ToolOutcome {
  if (resolution.kind === 'empty') return errorOutcome({ code: 'ProjectNotConnected', message: resolution.message });
  return errorOutcome({ code: 'ProjectNotConnected', message: resolution.message, next: { kind: 'resolveTargetAgain', tools: ['list_engine_instances'] }, details: { pin: resolution.pin } });
}
