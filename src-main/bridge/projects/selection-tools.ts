/**
 * The server-native tools agents use to choose a project when several are connected (McpPlugin.Server's
 * `list_engine_instances` and `select_engine_instance`, same names and arguments). Published only with
 * multi-project routing; a selection is sticky for the agent's MCP session and never overrides a pin.
 */
import { z } from 'zod';
import { errorOutcome, successOutcome, type CallContext, type ToolDescriptor, type ToolOutcome, type ToolSource } from '../../contracts/index.js';
import { pinMatches } from '../../shared/index.js';
import type { Project, ProjectRegistry } from './project-registry.js';

export const LIST_INSTANCES = 'list_engine_instances';
export const SELECT_INSTANCE = 'select_engine_instance';
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1_000;

const DESCRIPTORS: ToolDescriptor[] = [
  {
    name: LIST_INSTANCES,
    title: 'List engine instances',
    description:
      'List the connected application instances (engine, project, machine, role, pin) grouped by project, and which project this session uses. Use select_engine_instance to switch.',
    inputSchema: {
      type: 'object',
      properties: { limit: { type: ['integer', 'null'], minimum: 0, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Most instances to return (0 returns none).' } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: SELECT_INSTANCE,
    title: 'Select engine instance',
    description:
      "Set this MCP session's project: give instance_id (preferred) or a unique project_name. Later calls go to that project's editor (or runtime). May narrow a project pin but never overrides it.",
    inputSchema: {
      type: 'object',
      properties: {
        instance_id: { type: 'string', description: 'The instance id from list_engine_instances.' },
        project_name: { type: 'string', description: 'A unique project name (alternative to instance_id).' },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, openWorldHint: false },
  },
];

const listArgs = z.object({ limit: z.number().int().min(0).max(MAX_LIMIT).nullish() }).strict();
const selectArgs = z
  .object({ instance_id: z.string().trim().max(256).optional(), project_name: z.string().trim().max(256).optional() })
  .strict();

function invalid(message: string, tool: string): ToolOutcome {
  return errorOutcome({ code: 'InvalidArguments', message, next: { kind: 'fixArguments', tools: [tool] } });
}

export class ProjectSelectionTools implements ToolSource {
  readonly id = 'projects';

  constructor(private readonly registry: ProjectRegistry) {}

  listTools(): readonly ToolDescriptor[] {
    return this.registry.mode === 'multi' ? DESCRIPTORS : [];
  }

  onToolsChanged(listener: () => void): () => void {
    return this.registry.events.on('modeChanged', () => listener());
  }

  async callTool(name: string, args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutcome> {
    if (this.registry.mode !== 'multi') {
      return errorOutcome({ code: 'ToolNotFound', message: `'${name}' is served only with project-routing=multi.` });
    }
    return name === LIST_INSTANCES ? this.list(args, ctx) : this.select(args, ctx);
  }

  private list(args: Record<string, unknown>, ctx: CallContext): ToolOutcome {
    const parsed = listArgs.safeParse(args);
    if (!parsed.success) return invalid(`Invalid arguments for ${LIST_INSTANCES}: ${parsed.error.issues.map((i) => i.message).join('; ')}`, LIST_INSTANCES);
    const limit = parsed.data.limit ?? DEFAULT_LIMIT;
    const all = this.registry.instances();
    const resolution = this.registry.resolveQuietly(ctx.scope);
    const selected = this.registry.selectedProject(ctx.scope?.sessionId);
    return successOutcome({
      items: all.slice(0, limit).map((i) => ({ ...i, selected: i.projectKey === selected })),
      hasMore: all.length > limit,
      totalCount: all.length,
      session: {
        pin: ctx.scope?.pin ?? null,
        selectedProject: selected ?? null,
        routesTo: resolution.kind === 'resolved' ? resolution.project.key : null,
        ...(resolution.kind === 'resolved' ? {} : { problem: resolution.message }),
      },
    });
  }

  private select(args: Record<string, unknown>, ctx: CallContext): ToolOutcome {
    const parsed = selectArgs.safeParse(args);
    if (!parsed.success) return invalid(`Invalid arguments for ${SELECT_INSTANCE}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`, SELECT_INSTANCE);
    const sessionId = ctx.scope?.sessionId;
    if (sessionId === undefined) return invalid('Cannot set a selection without an MCP session: direct HTTP calls choose a project with a /p/{pin}/api/tools route.', SELECT_INSTANCE);
    const { instance_id: instanceId, project_name: projectName } = parsed.data;
    const instances = this.registry.instances();
    if (instances.length === 0) {
      return errorOutcome({ code: 'ProjectNotConnected', message: 'No project is connected: open a project in its editor first.' });
    }
    let target: Project | undefined;
    if (instanceId) {
      const match = instances.find((i) => i.instanceId === instanceId);
      if (!match) return this.notFound(`No connected instance has id '${instanceId}'.`);
      target = this.registry.project(match.projectKey);
    } else if (projectName) {
      const keys = new Set(instances.filter((i) => i.projectName?.toLowerCase() === projectName.toLowerCase()).map((i) => i.projectKey));
      if (keys.size === 0) return this.notFound(`No connected instance is for project '${projectName}'.`);
      if (keys.size > 1) {
        return errorOutcome(
          { code: 'Conflict', message: `Several projects are named '${projectName}'; pass instance_id instead.`, next: { kind: 'resolveTargetAgain', tools: [LIST_INSTANCES] } },
        );
      }
      target = this.registry.project([...keys][0] ?? '');
    } else {
      return invalid("Provide 'instance_id' (preferred) or a unique 'project_name'.", SELECT_INSTANCE);
    }
    if (!target) return this.notFound('The instance left while it was being selected.');
    const pin = ctx.scope?.pin;
    if (pin !== undefined && !pinMatches(pin, [target.identity.projectPathHash, target.identity.projectPathHashLegacy])) {
      return errorOutcome({ code: 'Conflict', message: `This session is pinned to project pin ${pin}; it can only select an instance of that project.` });
    }
    this.registry.select(sessionId, target.key);
    const label = instances.find((i) => i.projectKey === target.key)?.label ?? target.key;
    return successOutcome({ selected: { projectKey: target.key, label }, message: `Selected ${label} for this session.` });
  }

  private notFound(message: string): ToolOutcome {
    return errorOutcome({ code: 'ProjectNotConnected', message, next: { kind: 'resolveTargetAgain', tools: [LIST_INSTANCES] } });
  }
}
