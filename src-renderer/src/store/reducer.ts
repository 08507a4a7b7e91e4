/**
 * Pure console state: a snapshot replaces everything, then sequenced events apply in order.
 * Events at or below the applied sequence are ignored, so a resync or a replay never double-applies.
 */
import type {
  AgentView,
  ApprovalView,
  BridgeView,
  CallApprovalView,
  CallView,
  ControlEvent,
  ControlSnapshot,
  ControlWireFrame,
  ElicitationsView,
  MetricsView,
  OperatorNotice,
  PluginView,
  PolicyChangeView,
  PolicyView,
  RecoveryView,
  WorkspaceView,
} from '../../../src-main/contracts/index.js';
import { formatTime } from '../lib/format.js';
import { CallMap } from './call-map.js';

export const MAX_CALLS = 10_000;
/** Held tool calls kept for display: every pending one plus the most recent decisions. */
export const MAX_CALL_APPROVALS = 500;
/** Notices raised by the server kept for display (each one also expires on screen). */
export const MAX_NOTICES = 20;
/** Plugins that left, newest first, kept so their slot can say who was there and why it went. */
export const MAX_DEPARTED = 20;
/** Policy changes seen while this console watched, kept so an "always allow" can be undone from here. */
export const MAX_POLICY_CHANGES = 20;

/** A plugin connection that ended, as the console last saw it. */
export interface DepartedPlugin {
  plugin: PluginView;
  /** When the console learnt it was gone (epoch ms). */
  at: number;
  reason?: string;
  /** The connection that took its slot, when it was replaced. */
  replacedBy?: string;
}

interface Field<T> {
  /** Before the first snapshot. */
  empty: T;
  /** What a snapshot sets it to; absent: a snapshot leaves it as it was (the server does not hold it). */
  from?: (snapshot: ControlSnapshot) => T;
}

const field = <T>(empty: T, from?: (snapshot: ControlSnapshot) => T): Field<T> => (from ? { empty, from } : { empty });
const recentCalls = (snapshot: ControlSnapshot) => snapshot.calls.slice(-MAX_CALLS);

/** The console's state, each part declared once: its value before any snapshot and how a snapshot sets it. */
const FIELDS = {
  version: field('', (s) => s.version),
  plugins: field<PluginView[]>([], (s) => s.plugins),
  /** Call views by id; `callIds` holds their order, oldest first. */
  calls: field(CallMap.EMPTY, (s) => CallMap.of(recentCalls(s))),
  callIds: field<string[]>([], (s) => recentCalls(s).map((c) => c.callId)),
  workspaces: field<WorkspaceView[]>([], (s) => s.workspaces),
  approvals: field<ApprovalView[]>([], (s) => s.approvals),
  /** Tool calls held by the approval policy, pending and decided, oldest first. */
  callApprovals: field<CallApprovalView[]>([], (s) => s.callApprovals.slice(-MAX_CALL_APPROVALS)),
  policy: field<PolicyView | undefined>(undefined, (s) => s.policy),
  /** Changes of the policy while this console watched, oldest first (events only). */
  policyChanges: field<PolicyChangeView[]>([]),
  recovery: field<RecoveryView | undefined>(undefined, (s) => s.recovery),
  bridge: field<BridgeView | undefined>(undefined, (s) => s.bridge),
  /** The server's last-minute call statistics (the renderer never recomputes them from history). */
  metrics: field<MetricsView | undefined>(undefined, (s) => s.metrics),
  /** Who answers elicitations, and the elicitations and sampling requests waiting for the operator; undefined when the server has no queue. */
  elicitations: field<ElicitationsView | undefined>(undefined, (s) => s.elicitations),
  /** Connected agents (sessions and direct API callers). */
  agents: field<AgentView[]>([], (s) => s.agents),
  /** Notices the server raised and the console's own, oldest first (a snapshot adds those that stand). */
  notices: field<OperatorNotice[]>([]),
  /** Plugins that left, newest first: the server's record from a snapshot, then those this console saw go. */
  departed: field<DepartedPlugin[]>([]),
  /** Last applied sequence; -1 before the first snapshot. */
  seq: field(-1, () => -1),
  /** Sequence gaps seen (should stay 0; non-zero means a transport lost frames). */
  gaps: field(0, () => 0),
  /** The last snapshot's sequence until an event follows it: `snapshotCalls` parts of it may still arrive. */
  openSnapshot: field<number | undefined>(undefined, () => undefined),
};

export type ConsoleData = { [K in keyof typeof FIELDS]: (typeof FIELDS)[K]['empty'] };

function fill(value: (f: Field<unknown>, key: keyof ConsoleData) => unknown): ConsoleData {
  return Object.fromEntries(Object.entries(FIELDS).map(([key, f]) => [key, value(f as Field<unknown>, key as keyof ConsoleData)])) as ConsoleData;
}

export const EMPTY_DATA: ConsoleData = fill((f) => f.empty);

function fromSnapshot(previous: ConsoleData, seq: number, snapshot: ControlSnapshot): ConsoleData {
  const data: ConsoleData = { ...fill((f, key) => (f.from ? f.from(snapshot) : previous[key])), seq, openSnapshot: seq };
  // A server that remembers departures knows them better than this console, which may have opened after them.
  if (snapshot.departedPlugins) data.departed = departuresOf(data, snapshot);
  // Standing notices join what this console already shows; a resync must not drop its own.
  for (const notice of snapshot.notices) data.notices = upsertBy(data.notices, notice, (n) => n.id);
  data.notices = data.notices.slice(-MAX_NOTICES);
  return data;
}

function upsertBy<T>(items: T[], item: T, key: (t: T) => string): T[] {
  const k = key(item);
  const index = items.findIndex((t) => key(t) === k);
  if (index === -1) return [...items, item];
  const copy = items.slice();
  copy[index] = item;
  return copy;
}

/** Working copy for one batch: call changes are collected and become one new CallMap version at the end. */
interface Draft {
  data: ConsoleData;
  /** New views (undefined: removed) by id since `data.calls`. */
  callChanges: Map<string, CallView | undefined>;
  addedIds: string[];
  /** When these frames arrived: the time a departure is remembered under. */
  receivedAt: number;
}

function draft(data: ConsoleData, receivedAt: number): Draft {
  return { data, callChanges: new Map(), addedIds: [], receivedAt };
}

function getCall(d: Draft, callId: string): CallView | undefined {
  return d.callChanges.has(callId) ? d.callChanges.get(callId) : d.data.calls.get(callId);
}

/** Two connections compete for one slot: the same role in the same project (in the one project with single routing). */
function sameSlot(data: ConsoleData, a: PluginView, b: PluginView): boolean {
  return a.role === b.role && groupKey(a, data.bridge?.projectRouting !== 'multi') === groupKey(b, data.bridge?.projectRouting !== 'multi');
}

/** A departure right before its successor's handshake is a replacement too (the bridge may report either order). */
const REPLACED_WITHIN_MS = 5_000;

/** The console's own notice about a plugin connection: one per connection, the latest news replacing the earlier. */
function notice(d: Draft, level: OperatorNotice['level'], title: string, message: string, plugin: PluginView): void {
  const raised: OperatorNotice = { id: `plugin-${plugin.connectionId}`, level, title, message, subject: { kind: 'plugin', id: plugin.connectionId, label: `plugin ${plugin.name} (${plugin.role})` }, at: d.receivedAt };
  d.data.notices = upsertBy(d.data.notices, raised, (n) => n.id).slice(-MAX_NOTICES);
}

function upsertPlugin(d: Draft, incoming: PluginView): void {
  const data = d.data;
  const known = data.plugins.find((p) => p.connectionId === incoming.connectionId);
  let plugin = incoming;
  if (plugin.state === 'awaited' && known?.state !== 'awaited') {
    // The console saw it go: that is when it was last seen, if the bridge does not say.
    plugin = { ...plugin, disconnectedAt: plugin.disconnectedAt ?? d.receivedAt };
    notice(d, 'warning', 'Plugin connection lost', `${plugin.lostReason ? `${plugin.lostReason}; ` : ''}awaited back${plugin.awaitedUntil ? ` until ${formatTime(plugin.awaitedUntil)}` : ''}`, plugin);
  } else if (plugin.state === 'awaited' && known?.disconnectedAt !== undefined) {
    plugin = { ...plugin, disconnectedAt: plugin.disconnectedAt ?? known.disconnectedAt };
  }
  data.plugins = upsertBy(data.plugins, plugin, (p) => p.connectionId);
  if (known) return;
  data.departed = data.departed.flatMap((gone) => {
    if (gone.replacedBy || d.receivedAt - gone.at > REPLACED_WITHIN_MS || !sameSlot(data, gone.plugin, plugin)) return [gone];
    if (cameBack(gone.plugin, plugin)) {
      notice(d, 'info', 'Plugin back', `reconnected as connection ${plugin.connectionId}`, gone.plugin);
      return [];
    }
    notice(d, 'info', 'Plugin replaced', `a newer ${plugin.role} connection (${plugin.name}) took its slot`, gone.plugin);
    return [{ ...gone, replacedBy: plugin.connectionId }];
  });
}

/** An awaited plugin's successor of the same name is the plugin reconnecting, not a replacement. */
function cameBack(gone: PluginView, successor: PluginView): boolean {
  return gone.state === 'awaited' && gone.name === successor.name;
}

/**
 * What the console makes of a plugin connection that ended: who took its slot (the bridge's word, else a
 * later connection in the same slot, connected by `successorBy` when given) and why it went. No entry
 * when its successor is the plugin itself coming back.
 */
function departureOf(data: ConsoleData, plugin: PluginView, at: number, reported: { reason?: string; replacedBy?: string }, successorBy = Infinity): { entry?: DepartedPlugin; next?: PluginView } {
  const successor =
    reported.replacedBy ?? data.plugins.find((p) => p.connectionId !== plugin.connectionId && sameSlot(data, p, plugin) && p.connectedAt >= plugin.connectedAt && p.connectedAt <= successorBy)?.connectionId;
  const next = successor === undefined ? undefined : data.plugins.find((p) => p.connectionId === successor);
  if (next && cameBack(plugin, next)) return { next };
  const reason = reported.reason ?? plugin.lostReason ?? (plugin.state === 'awaited' ? 'not back in time' : successor ? undefined : 'connection closed');
  return { entry: { plugin, at, ...(reason ? { reason } : {}), ...(successor ? { replacedBy: successor } : {}) }, ...(next ? { next } : {}) };
}

/** The departures a snapshot reports, as the console would have recorded them watching. */
function departuresOf(data: ConsoleData, snapshot: ControlSnapshot): DepartedPlugin[] {
  return (snapshot.departedPlugins ?? []).flatMap((gone) => departureOf(data, gone.plugin, gone.at, gone, gone.at + REPLACED_WITHIN_MS).entry ?? []);
}

function depart(d: Draft, event: Extract<ControlEvent, { type: 'plugin.disconnected' }>): void {
  const data = d.data;
  const plugin = data.plugins.find((p) => p.connectionId === event.connectionId);
  data.plugins = data.plugins.filter((p) => p.connectionId !== event.connectionId);
  if (!plugin) return;
  const { entry, next } = departureOf(data, plugin, plugin.disconnectedAt ?? d.receivedAt, event);
  if (!entry) {
    notice(d, 'info', 'Plugin back', `reconnected as connection ${next?.connectionId ?? 'unknown'}`, plugin);
    return;
  }
  data.departed = [entry, ...data.departed.filter((p) => p.plugin.connectionId !== plugin.connectionId)].slice(0, MAX_DEPARTED);
  if (entry.replacedBy) notice(d, 'info', 'Plugin replaced', `a newer ${plugin.role} connection${next ? ` (${next.name})` : ''} took its slot`, plugin);
  else notice(d, 'error', 'Plugin gone', entry.reason ?? 'its connection ended', plugin);
}

/** Changes the console's queue of elicitations and sampling requests, when the server has one. */
function withQueue(data: ConsoleData, change: (queue: ElicitationsView) => ElicitationsView): void {
  if (data.elicitations) data.elicitations = change(data.elicitations);
}

function applyEvent(d: Draft, event: ControlEvent): void {
  const data = d.data;
  switch (event.type) {
    case 'plugin.connected':
    case 'plugin.updated':
      upsertPlugin(d, event.plugin);
      return;
    case 'plugin.disconnected':
      depart(d, event);
      return;
    case 'call.started':
    case 'call.finished': {
      const known = getCall(d, event.call.callId);
      if (!known) d.addedIds.push(event.call.callId);
      // Call events do not carry the nested requests that 'call.nested' recorded; keep them.
      d.callChanges.set(event.call.callId, known?.nested && !event.call.nested ? { ...event.call, nested: known.nested } : event.call);
      return;
    }
    case 'call.progress': {
      const call = getCall(d, event.callId);
      if (call) d.callChanges.set(event.callId, { ...call, progress: event.progress });
      return;
    }
    case 'call.nested': {
      const call = getCall(d, event.nested.callId);
      if (call) d.callChanges.set(call.callId, { ...call, nested: upsertBy(call.nested ?? [], event.nested, (n) => n.nestedId) });
      return;
    }
    case 'elicitation.pending':
      withQueue(data, (q) => ({ ...q, pending: upsertBy(q.pending, event.elicitation, (e) => e.elicitationId) }));
      return;
    case 'elicitation.resolved':
      withQueue(data, (q) => ({ ...q, pending: q.pending.filter((e) => e.elicitationId !== event.elicitationId) }));
      return;
    case 'elicitation.answerer':
      data.elicitations = { pending: data.elicitations?.pending ?? [], sampling: data.elicitations?.sampling ?? [], answerer: event.answerer };
      return;
    case 'sampling.pending':
      withQueue(data, (q) => ({ ...q, sampling: upsertBy(q.sampling, event.sampling, (p) => p.samplingId) }));
      return;
    case 'sampling.resolved':
      withQueue(data, (q) => ({ ...q, sampling: q.sampling.filter((p) => p.samplingId !== event.samplingId) }));
      return;
    case 'workspace.updated':
      data.workspaces = upsertBy(data.workspaces, event.workspace, (w) => w.workspaceId);
      return;
    case 'approval.requested':
    case 'approval.decided':
      data.approvals = upsertBy(data.approvals, event.approval, (a) => a.approvalId);
      return;
    case 'callApproval.requested':
    case 'callApproval.decided': {
      const next = upsertBy(data.callApprovals, event.approval, (a) => a.askId);
      // Drop the oldest decided entries first; a pending call never leaves the list.
      while (next.length > MAX_CALL_APPROVALS) {
        const oldest = next.findIndex((a) => a.state !== 'pending');
        if (oldest === -1) break;
        next.splice(oldest, 1);
      }
      data.callApprovals = next;
      return;
    }
    case 'policy.updated':
      data.policy = event.policy;
      data.policyChanges = [...data.policyChanges, event.change].slice(-MAX_POLICY_CHANGES);
      return;
    case 'recovery.state':
      data.recovery = event.recovery;
      return;
    case 'bridge.state':
      data.bridge = event.bridge;
      return;
    case 'metrics.updated':
      data.metrics = event.metrics;
      return;
    case 'agents.changed':
      data.agents = event.agents;
      return;
    case 'notice.raised':
      data.notices = upsertBy(data.notices, event.notice, (n) => n.id).slice(-MAX_NOTICES);
      return;
    default: {
      // A new event type must be handled here: this stops compiling until it is.
      const unhandled: never = event;
      return unhandled;
    }
  }
}

function finishCalls(d: Draft): void {
  if (d.addedIds.length > 0) {
    let ids = d.data.callIds.concat(d.addedIds);
    if (ids.length > MAX_CALLS) {
      const evicted = ids.slice(0, ids.length - MAX_CALLS);
      ids = ids.slice(ids.length - MAX_CALLS);
      for (const id of evicted) d.callChanges.set(id, undefined);
    }
    d.data.callIds = ids;
    d.addedIds = [];
  }
  d.data.calls = d.data.calls.with(d.callChanges);
  d.callChanges = new Map();
}

function applySequenced(d: Draft, seq: number, event: ControlEvent): void {
  if (d.data.seq < 0 || seq <= d.data.seq) return;
  if (seq !== d.data.seq + 1) d.data.gaps += 1;
  applyEvent(d, event);
  d.data.seq = seq;
  d.data.openSnapshot = undefined;
}

/** Older calls of the current snapshot go before every known call, as long as the log has room for them. */
function applySnapshotCalls(d: Draft, seq: number, calls: readonly CallView[]): void {
  if (d.data.openSnapshot !== seq) return;
  const room = MAX_CALLS - d.data.callIds.length - d.addedIds.length;
  const older: string[] = [];
  for (let i = calls.length - 1; i >= 0 && older.length < room; i--) {
    const call = calls[i];
    if (!call || getCall(d, call.callId)) continue;
    d.callChanges.set(call.callId, call);
    older.push(call.callId);
  }
  if (older.length > 0) d.data.callIds = older.reverse().concat(d.data.callIds);
}

/**
 * Applies frames (single events, batches and snapshot parts alike) in order and returns the new state
 * (the input is not modified). `receivedAt` is when they arrived, for what the console remembers by time.
 */
export function applyFrames(state: ConsoleData, frames: readonly ControlWireFrame[], receivedAt = Date.now()): ConsoleData {
  let d = draft({ ...state }, receivedAt);
  for (const frame of frames) {
    if (frame.type === 'snapshot') {
      finishCalls(d);
      d = draft(fromSnapshot(d.data, frame.seq, frame.snapshot), receivedAt);
    } else if (frame.type === 'event') {
      applySequenced(d, frame.seq, frame.event);
    } else if (frame.type === 'events') {
      frame.events.forEach((event, i) => applySequenced(d, frame.fromSeq + i, event));
    } else {
      applySnapshotCalls(d, frame.seq, frame.calls);
    }
  }
  finishCalls(d);
  return d.data;
}

export function pendingApprovals(data: ConsoleData): ApprovalView[] {
  return data.approvals.filter((a) => a.state === 'pending');
}

export function pendingCallApprovals(data: Pick<ConsoleData, 'callApprovals'>): CallApprovalView[] {
  return data.callApprovals.filter((a) => a.state === 'pending');
}

/** Everything waiting for the operator: held tool calls and commit approvals (the badge, the banner, the header and the title agree). */
export function waitingForOperator(data: ConsoleData): { commits: number; calls: number; total: number } {
  const commits = pendingApprovals(data).length;
  const calls = pendingCallApprovals(data).length;
  return { commits, calls, total: commits + calls };
}

/** The pending approval of each held call, by call id. */
export function heldCalls(data: Pick<ConsoleData, 'callApprovals'>): ReadonlyMap<string, CallApprovalView> {
  return new Map(pendingCallApprovals(data).map((a) => [a.callId, a]));
}

export interface ProjectGroup {
  key: string;
  label: string;
  engine?: string;
  projectName?: string;
  machineName?: string;
  pin?: string;
  editors: PluginView[];
  runtimes: PluginView[];
  agents: AgentView[];
  /** Plugins of this project that left, newest first. */
  departed: DepartedPlugin[];
}

function groupKey(plugin: PluginView, single: boolean): string {
  return single ? 'single' : (plugin.project?.key ?? plugin.connectionId);
}

/**
 * Plugins grouped by project, newest project first as the core orders them. With single routing every
 * agent uses the one project; with multi routing an agent counts under the project its calls go to.
 * A project whose plugins all left still shows, so its slots can say who was there.
 */
export function projectGroups(data: ConsoleData): ProjectGroup[] {
  const groups = new Map<string, ProjectGroup>();
  const single = data.bridge?.projectRouting !== 'multi';
  const groupOf = (plugin: PluginView): ProjectGroup => {
    const key = groupKey(plugin, single);
    let group = groups.get(key);
    if (!group) {
      const project = plugin.project;
      group = {
        key,
        label: project?.label ?? plugin.name,
        ...(project?.engine ? { engine: project.engine } : {}),
        ...(project?.projectName ? { projectName: project.projectName } : {}),
        ...(project?.machineName ? { machineName: project.machineName } : {}),
        // Pins route only under multi-project routing; showing one otherwise would invite a 404.
        ...(project?.pin && !single ? { pin: project.pin } : {}),
        editors: [],
        runtimes: [],
        agents: [],
        departed: [],
      };
      groups.set(key, group);
    }
    return group;
  };
  for (const plugin of data.plugins) {
    const group = groupOf(plugin);
    (plugin.role === 'editor' ? group.editors : group.runtimes).push(plugin);
  }
  for (const departed of data.departed) groupOf(departed.plugin).departed.push(departed);
  for (const agent of data.agents) {
    const group = single ? groups.get('single') : agent.projectKey === undefined ? undefined : groups.get(agent.projectKey);
    group?.agents.push(agent);
  }
  return [...groups.values()];
}
