/**
 * What the dispatcher asks the approval gate about one call. Its `target` is routed only when read
 * (routing walks the plugin registry, and only rules on the source and held calls need it). A class
 * with a prototype getter rather than an object literal with `get target()`: V8 builds an accessor
 * literal through its slow runtime path, about a microsecond per call and a dictionary-mode object,
 * while a prototype getter costs nothing until it is read.
 */
import type { AgentScope, GateRequest, ToolSource, ToolTarget } from '../contracts/index.js';

export class RoutedGateRequest implements GateRequest {
  readonly callId: string;
  readonly tool: string;
  readonly descriptor: GateRequest['descriptor'];
  readonly agent: string;
  readonly agentName: string;
  readonly session: string;
  readonly transport: GateRequest['transport'];
  readonly args: Record<string, unknown>;
  readonly signal: AbortSignal;
  readonly progress: GateRequest['progress'];
  private routed: ToolTarget | undefined;

  constructor(
    init: Omit<GateRequest, 'target'>,
    /** The source that publishes the tool, which tells where it would run for the agent's scope. */
    private readonly source: ToolSource,
    private readonly scope: AgentScope | undefined,
  ) {
    this.callId = init.callId;
    this.tool = init.tool;
    this.descriptor = init.descriptor;
    this.agent = init.agent;
    this.agentName = init.agentName;
    this.session = init.session;
    this.transport = init.transport;
    this.args = init.args;
    this.signal = init.signal;
    this.progress = init.progress;
  }

  get target(): ToolTarget {
    return (this.routed ??= this.route());
  }

  retarget(): ToolTarget {
    return this.route();
  }

  private route(): ToolTarget {
    return this.source.targetOf?.(this.tool, this.scope) ?? { source: 'host' };
  }
}
