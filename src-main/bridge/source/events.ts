/**
 * The bridge's events for the console and the MCP room, re-emitted from the project registry (which
 * announces every plugin and catalogue change) beside the bridge's own (plugin log lines, resource
 * updates); and the expiry of awaited plugins on the injected clock.
 */
import type { OperatorNotice, PluginView, ResourceUpdate } from '../../contracts/index.js';
import type { TypedEmitter } from '../../shared/index.js';
import type { ProjectRegistry } from '../projects/index.js';
import type { DuplicateToolDiagnostic, ListDegradedDiagnostic } from '../registry/index.js';
import type { AgentLogEntry, PluginLogEntry } from './plugin-port.js';

export interface BridgeEvents {
  pluginConnected: PluginView;
  pluginUpdated: PluginView;
  pluginDisconnected: { connectionId: string };
  promptsChanged: undefined;
  resourcesChanged: undefined;
  diagnostic: DuplicateToolDiagnostic;
  listDegraded: ListDegradedDiagnostic;
  log: PluginLogEntry;
  agentLog: AgentLogEntry;
  /** A plugin said a resource changed (MCP extension); the topic names its project. */
  resourceUpdated: ResourceUpdate;
  /** A plugin asked to show the operator a notice (MCP extension, `operatorNotices`); its subject is the plugin. */
  operatorNotice: OperatorNotice;
}

type Relayed = 'pluginConnected' | 'pluginUpdated' | 'pluginDisconnected' | 'promptsChanged' | 'resourcesChanged' | 'diagnostic' | 'listDegraded';
const RELAYED: readonly Relayed[] = ['pluginConnected', 'pluginUpdated', 'pluginDisconnected', 'promptsChanged', 'resourcesChanged', 'diagnostic', 'listDegraded'];

/** Re-emits the registry's plugin and catalogue events as the bridge's; returns the unsubscribers. */
export function relayRegistryEvents(projects: ProjectRegistry, events: TypedEmitter<BridgeEvents>): Array<() => void> {
  return RELAYED.map((name) => projects.events.on(name, (payload) => events.emit(name, payload as never)));
}

/**
 * Ends the awaited state of departed plugins when their reconnect wait is over. The registry keeps no
 * timers; this one re-arms for the earliest remaining deadline, on the same clock the registry is given.
 */
export class AwaitedExpiry {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly projects: ProjectRegistry,
    private readonly now: () => number,
  ) {}

  schedule(): void {
    clearTimeout(this.timer);
    const nextUntil = this.projects.expireAwaited(this.now());
    if (nextUntil === undefined) return;
    this.timer = setTimeout(() => this.schedule(), Math.max(1, nextUntil - this.now()));
    this.timer.unref();
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
