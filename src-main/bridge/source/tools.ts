/** The bridged plugins' tools as one ToolSource: the union of the agent's project catalogue, calls through routing and the call guard. */
import type { AgentScope, CallContext, ToolDescriptor, ToolOutcome, ToolSource, ToolTarget } from '../../contracts/index.js';
import { guardedCall } from '../calls/index.js';
import { routeTool } from '../registry/index.js';
import { toolDescriptor } from './mcp-shapes.js';
import type { SourceContext } from './plugin-port.js';
import { connectionTarget, refusesFallThrough, unresolvedOutcome } from './scope.js';

export class BridgeTools implements ToolSource {
  readonly id = 'bridge';

  constructor(private readonly context: SourceContext) {}

  /** Unscoped: every project's tools (the catalogue resolves names from it); scoped: the session's project. */
  listTools(scope?: AgentScope): readonly ToolDescriptor[] {
    const { projects } = this.context;
    if (scope === undefined || projects.mode === 'single') return projects.publishedTools().map(({ tool }) => toolDescriptor(tool));
    const resolution = projects.resolveQuietly(scope);
    return resolution.kind === 'resolved' ? resolution.project.registry.publishedTools().map(({ tool }) => toolDescriptor(tool)) : [];
  }

  /** A pinned or selecting agent whose project is not connected (or whose pin is ambiguous) hears which, not just "unknown tool". */
  explainMissing(_name: string, scope?: AgentScope): ToolOutcome | undefined {
    const { projects } = this.context;
    if (scope === undefined || projects.mode === 'single') return undefined;
    const resolution = projects.resolveQuietly(scope);
    return resolution.kind !== 'resolved' && refusesFallThrough(resolution) ? unresolvedOutcome(resolution) : undefined;
  }

  async callTool(name: string, args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutcome> {
    const { projects, port, settings } = this.context;
    const resolution = projects.resolve(ctx.scope);
    if (resolution.kind !== 'resolved') return unresolvedOutcome(resolution);
    projects.touch(resolution.project);
    const outcome = await guardedCall(resolution.project.registry, port, settings, name, args, ctx);
    if (!resolution.note) return outcome;
    return { ...outcome, result: { ...outcome.result, content: [...outcome.result.content, { type: 'text', text: resolution.note }] } };
  }

  /**
   * The plugin the router would pick now; a call that must wait for a plugin names only the awaited role.
   * With several projects and a scope, within the project that scope resolves to (as its call would).
   */
  targetOf(name: string, scope?: AgentScope): ToolTarget {
    const { projects, settings } = this.context;
    const now = settings.now();
    const resolution = scope === undefined || projects.mode === 'single' ? undefined : projects.resolveQuietly(scope);
    const within = resolution?.kind === 'resolved' ? resolution.project.registry : projects;
    const decision = routeTool(name, within.active(), within.awaited(now), now);
    if (decision.kind === 'notFound') return { source: 'bridge' };
    if (decision.kind === 'wait') return { source: 'bridge', role: decision.role };
    return connectionTarget(this.context, decision.connectionId);
  }

  onToolsChanged(listener: () => void): () => void {
    return this.context.projects.events.on('toolsChanged', () => listener());
  }
}
