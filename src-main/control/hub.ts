/**
 * The control room: one in-memory hub that turns the composition root's events into a sequenced stream,
 * keeps recent calls, answers the console commands it holds the state for and forwards the others to
 * injected handlers. No I/O; transports adapt it.
 */
import { CONTROL_COMMAND_NAMES, JunctionError, next, type ControlCommandHandlers as TableHandlers, type ControlCommandName } from '../contracts/index.js';
import type {
  AgentView,
  ApprovalView,
  BridgeView,
  CallApprovalView,
  CallDetail,
  CallJson,
  ControlApi,
  HistoryPage,
  HistoryQuery,
  TransactionHistoryPage,
  ControlEvent,
  ControlFrame,
  ControlResult,
  ControlSnapshot,
  MetricsView,
  PluginDetailView,
  PluginTimelineEntry,
  ElicitationsView,
  PluginView,
  PolicyView,
  RecoveryView,
  SequencedEvent,
  ToolCatalogueEntry,
  ToolDescriptor,
  WorkspaceView,
} from '../contracts/index.js';
import { CallLog, DEFAULT_CALL_LOG_LIMITS, type CallLogLimits } from './call-log.js';
import { dispatchCommand, invokeCommand } from './commands.js';
import { PluginDepartures } from './departures.js';
import { StandingNotices } from './standing-notices.js';
import { CallMetrics } from './metrics.js';

export interface ControlProviders {
  plugins(): PluginView[];
  workspaces(): WorkspaceView[];
  approvals(): ApprovalView[];
  recovery(): RecoveryView;
  bridge(): BridgeView;
  /** The catalogue agents see, for the console's tool list (the hub adds per-tool totals). */
  tools(): ToolEntryWithoutStats[];
  /** What one plugin connection publishes; undefined when it is not connected. */
  pluginCatalogue(connectionId: string): PluginCatalogueView | undefined;
  elicitations?(): ElicitationsView;
  callApprovals?(): CallApprovalView[];
  policy?(): PolicyView;
  /** Connected agents; a core without agent tracking leaves it out. */
  agents?(): AgentView[];
  /** The durable history (the audit trail); without it the console has only the calls kept in memory. */
  history?: HistoryProvider;
}

export type ToolEntryWithoutStats = Omit<ToolCatalogueEntry, 'stats'>;

/** A published tool as the console lists it; `source` names who publishes it. */
export function toolEntryOf(descriptor: ToolDescriptor, source: string): ToolEntryWithoutStats {
  return {
    name: descriptor.name,
    ...(descriptor.title ? { title: descriptor.title } : {}),
    ...(descriptor.description ? { description: descriptor.description } : {}),
    inputSchema: descriptor.inputSchema,
    ...(descriptor.annotations ? { annotations: descriptor.annotations } : {}),
    source,
  };
}

/** What one plugin connection publishes, as the composition root reads it from the bridge. */
export type PluginCatalogueView = Omit<PluginDetailView, 'plugin' | 'timeline' | 'tools'> & { tools: ToolEntryWithoutStats[] };

/** Asynchronous: the trail answers once what was recorded before the question is written, without blocking the event loop. */
export interface HistoryProvider {
  query(query: HistoryQuery): Promise<HistoryPage>;
  /** A recorded call's redacted detail, for calls no longer (or never) in the in-memory log. */
  detail(callId: string): Promise<CallDetail | undefined>;
  transactions(limit: number): Promise<TransactionHistoryPage>;
}

/** Commands the hub answers from its own state (the call log, metrics, timelines) and its providers. */
type HubCommand = 'snapshot' | 'callDetail' | 'tools' | 'pluginDetail' | 'history' | 'transactionHistory';

/** The commands the rest of Junction implements: every command of the table the hub does not answer itself. */
export type ControlCommandHandlers = TableHandlers<Exclude<ControlCommandName, HubCommand>>;

/** Connection events kept per plugin (by name and role, across reconnects). */
const TIMELINE_LIMIT = 50;
const TIMELINE_PLUGINS_LIMIT = 256;
/** The start of the console's answer when there is no audit trail to read history from. */
const AUDIT_OFF = 'The audit trail is off (audit=false)';

export interface ControlHubOptions {
  version: string;
  limits?: Partial<CallLogLimits>;
  now?: () => number;
}

/** What the rest of Junction gives the hub once every part is mounted: the state it shows and the commands it forwards. */
export interface ControlServing {
  providers: ControlProviders;
  commands: ControlCommandHandlers;
}

export type SnapshotFrame = Extract<ControlFrame, { type: 'snapshot' }>;

export interface ControlHub extends ControlApi {
  /**
   * Starts answering the console. Events may be published before (parts publish as they mount); a
   * snapshot or a command before it is refused with `Starting`.
   */
  serve(serving: ControlServing): void;
  /** Sequences an event, updates the call log and delivers it; returns its sequence number. */
  publish(event: ControlEvent): number;
  /** Keeps a bounded copy of a finished call's (already redacted) arguments and result for the console's detail view. */
  recordCallDetail(callId: string, json: CallJson): void;
  /** Publishes the last minute's metrics; the composition root calls it once a second. Skips repeats of an idle minute. */
  publishMetrics(): void;
  /** Sequence number of the last published event (0 before any). */
  readonly lastSeq: number;
  /** The current state together with the last sequence it includes. */
  snapshotFrame(): SnapshotFrame;
  /** Delivers a snapshot frame synchronously, then every later event in order; no gap, no duplicate. */
  attach(listener: (frame: ControlFrame) => void): () => void;
  /** Receives sequenced events only (transports that build their own snapshot frames). */
  subscribeSequenced(listener: (event: SequencedEvent) => void): () => void;
  /** Validates a raw wire command and runs it; never throws. */
  execute(command: unknown, args: unknown): Promise<ControlResult<unknown>>;
}

function notServing(): JunctionError {
  return new JunctionError('Starting', 'Junction is starting; the console is served once every part is up.', { next: next('retryLater') });
}

export function createControlHub(options: ControlHubOptions): ControlHub {
  const { version } = options;
  const now = options.now ?? Date.now;
  const limits: CallLogLimits = { ...DEFAULT_CALL_LOG_LIMITS, ...options.limits };
  const calls = new CallLog(limits);
  const metrics = new CallMetrics();
  const timelines = new Map<string, PluginTimelineEntry[]>();
  const timelineKeys = new Map<string, string>();
  const departures = new PluginDepartures();
  const standing = new StandingNotices();
  let lastIdle = false;
  const listeners = new Set<(event: SequencedEvent) => void>();
  const pending: SequencedEvent[] = [];
  let delivering = false;
  let seq = 0;
  let serving: { providers: ControlProviders; handlers: TableHandlers } | undefined;

  function served(): { providers: ControlProviders; handlers: TableHandlers } {
    if (!serving) throw notServing();
    return serving;
  }

  function applyToCalls(event: ControlEvent): void {
    if (event.type === 'call.started' || event.type === 'call.finished') {
      calls.upsert(event.call);
      metrics.observe(event.call, now());
    } else if (event.type === 'call.progress') calls.progress(event.callId, event.progress);
    else if (event.type === 'call.nested') calls.nested(event.nested);
    else if (event.type === 'callApproval.requested' || event.type === 'callApproval.decided') metrics.observeApproval(event.approval);
  }

  function note(key: string, entry: PluginTimelineEntry): void {
    let list = timelines.get(key);
    if (!list) {
      if (timelines.size >= TIMELINE_PLUGINS_LIMIT) {
        const oldest = timelines.keys().next().value;
        if (oldest !== undefined) timelines.delete(oldest);
      }
      list = [];
      timelines.set(key, list);
    }
    list.push(entry);
    if (list.length > TIMELINE_LIMIT) list.shift();
  }

  function applyToTimeline(event: ControlEvent): void {
    if (event.type === 'plugin.connected') {
      const p = event.plugin;
      const key = `${p.name}\u0000${p.role}`;
      timelineKeys.set(p.connectionId, key);
      note(key, {
        at: now(),
        kind: p.reconnects > 0 ? 'reconnected' : 'connected',
        detail: `handshake as ${p.role}: plugin ${p.pluginVersion ?? 'version not reported'}, protocol ${p.mcpPluginVersion ?? '8.0-era'}${p.environment ? `, ${p.environment}` : ''}`,
      });
    } else if (event.type === 'plugin.updated') {
      const p = event.plugin;
      const key = timelineKeys.get(p.connectionId);
      if (key) note(key, { at: now(), kind: 'updated', detail: p.state === 'awaited' ? 'disconnected; awaited back' : `catalogue: ${p.toolCount} tools, ${p.promptCount} prompts, ${p.resourceCount} resources` });
    } else if (event.type === 'notice.raised' && event.notice.subject.kind === 'plugin') {
      const key = timelineKeys.get(event.notice.subject.id);
      if (key) note(key, { at: event.notice.at, kind: 'notice', detail: `${event.notice.title}: ${event.notice.message}` });
    } else if (event.type === 'plugin.disconnected') {
      const key = timelineKeys.get(event.connectionId);
      if (key) note(key, { at: now(), kind: 'disconnected', detail: `connection ${event.connectionId} closed` });
      timelineKeys.delete(event.connectionId);
    }
  }

  function withStats(entry: ToolEntryWithoutStats): ToolCatalogueEntry {
    return { ...entry, stats: metrics.toolStats(entry.name) };
  }

  function metricsView(): MetricsView {
    return metrics.view(now());
  }

  // A listener that publishes while being notified must not reorder the stream for the listeners after it.
  function drain(): void {
    if (delivering) return;
    delivering = true;
    try {
      for (let item = pending.shift(); item; item = pending.shift()) {
        for (const listener of [...listeners]) {
          try {
            listener(item);
          } catch {
            // One broken console client must not starve the others; its transport owns its own errors.
          }
        }
      }
    } finally {
      delivering = false;
    }
  }

  function snapshot(): ControlSnapshot {
    const { providers } = served();
    return {
      version,
      plugins: providers.plugins(),
      calls: calls.list(),
      workspaces: providers.workspaces(),
      approvals: providers.approvals(),
      recovery: providers.recovery(),
      bridge: providers.bridge(),
      metrics: metricsView(),
      ...(providers.elicitations ? { elicitations: providers.elicitations() } : {}),
      callApprovals: providers.callApprovals?.() ?? [],
      ...(providers.policy ? { policy: providers.policy() } : {}),
      agents: providers.agents?.() ?? [],
      departedPlugins: departures.list(),
      notices: standing.list(now()),
    };
  }

  function subscribeSequenced(listener: (event: SequencedEvent) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  const own: TableHandlers<HubCommand> = {
    snapshot,
    async callDetail({ callId }) {
      const { providers } = served();
      const recent = calls.detail(callId);
      // A finished call's recorded detail carries what redaction replaced; a running one exists only in memory.
      const recorded = recent?.call.status === 'running' ? undefined : await providers.history?.detail(callId);
      const detail = recorded ?? recent;
      if (!detail) throw new JunctionError('ResourceNotFound', `No call ${callId} in the console's last ${limits.maxCalls} calls${providers.history ? ' or in the audit trail' : ''}.`);
      return detail;
    },
    history(query) {
      const { providers } = served();
      if (!providers.history) return { calls: [], available: false, reason: `${AUDIT_OFF}; only calls kept in memory are shown.` };
      return providers.history.query(query);
    },
    transactionHistory({ limit }) {
      const { providers } = served();
      if (!providers.history) return { transactions: [], available: false, reason: `${AUDIT_OFF}, so ended transactions are not kept.` };
      return providers.history.transactions(limit);
    },
    tools: () => served().providers.tools().map(withStats),
    pluginDetail({ connectionId }) {
      const { providers } = served();
      const plugin = providers.plugins().find((p) => p.connectionId === connectionId);
      const catalogue = plugin ? providers.pluginCatalogue(connectionId) : undefined;
      if (!plugin || !catalogue) throw new JunctionError('ResourceNotFound', `No plugin connection ${connectionId}.`);
      const key = timelineKeys.get(connectionId) ?? `${plugin.name}\u0000${plugin.role}`;
      return { plugin, ...catalogue, tools: catalogue.tools.map(withStats), timeline: [...(timelines.get(key) ?? [])] };
    },
  };
  const api = Object.fromEntries(CONTROL_COMMAND_NAMES.map((name) => [name, async (args?: unknown) => invokeCommand(served().handlers, name, args)])) as Omit<ControlApi, 'subscribe'>;

  const hub: ControlHub = {
    get lastSeq() {
      return seq;
    },
    publish(event) {
      seq += 1;
      applyToCalls(event);
      applyToTimeline(event);
      departures.observe(event, now());
      standing.observe(event);
      pending.push({ seq, event });
      drain();
      // A call held or released moves between the running and the waiting tiles: both change now, together,
      // not at the next metrics tick (meanwhile the header said the held call was running).
      if (event.type === 'callApproval.requested' || event.type === 'callApproval.decided') hub.publishMetrics();
      return seq;
    },
    recordCallDetail(callId, json) {
      calls.recordDetail(callId, json);
    },
    publishMetrics() {
      const view = metricsView();
      const idle = view.inFlight === 0 && view.series.calls.every((n) => n === 0);
      if (idle && lastIdle) return;
      lastIdle = idle;
      hub.publish({ type: 'metrics.updated', metrics: view });
    },
    // Events queued but not yet delivered are already in the call log, so the frame names the last delivered seq
    // only when nothing is pending; otherwise attaching mid-delivery would skip them.
    snapshotFrame() {
      return { type: 'snapshot', seq: seq - pending.length, snapshot: snapshot() };
    },
    attach(listener) {
      const first = hub.snapshotFrame();
      listener(first);
      return subscribeSequenced(({ seq: s, event }) => {
        if (s > first.seq) listener({ type: 'event', seq: s, event });
      });
    },
    subscribeSequenced,
    subscribe(listener) {
      return subscribeSequenced(({ event }) => listener(event));
    },
    serve({ providers, commands }) {
      // Completeness is checked here: a command of the table that neither the hub nor `commands` answers does not compile.
      const handlers: TableHandlers = { ...commands, ...own };
      serving = { providers, handlers };
    },
    async execute(command, args) {
      if (!serving) return { ok: false, error: notServing().toStructured() };
      return dispatchCommand(serving.handlers, command, args);
    },
    ...api,
  };
  return hub;
}
