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
  PluginView,
  PolicyView,
  RecoveryView,
  WorkspaceView,
} from '../../../src-main/contracts/index.js';
import { CallMap } from './call-map.js';

export const MAX_CALLS = 10_000;
/** Held tool calls kept for display: every pending one plus the most recent decisions. */
export const MAX_CALL_APPROVALS = 500;

export interface ConsoleData {
  /** Last applied sequence; -1 before the first snapshot. */
  seq: number;
  version: string;
  plugins: PluginView[];
  /** Call views by id; `callIds` holds their order, oldest first. */
  calls: CallMap;
  callIds: string[];
  workspaces: WorkspaceView[];
  approvals: ApprovalView[];
  /** Tool calls held by the approval policy, pending and decided, oldest first. */
  callApprovals: CallApprovalView[];
  policy: PolicyView | undefined;
  recovery: RecoveryView | undefined;
  bridge: BridgeView | undefined;
  /** The server's last-minute call statistics (the renderer never recomputes them from history). */
  metrics: MetricsView | undefined;
  /** Who answers elicitations and those waiting for the operator; undefined when the server has no queue. */
  elicitations: ElicitationsView | undefined;
  /** Connected agents (sessions and direct API callers). */
  agents: AgentView[];
  /** Sequence gaps seen (should stay 0; non-zero means a transport lost frames). */
  gaps: number;
  /** The last snapshot's sequence until an event follows it: `snapshotCalls` parts of it may still arrive. */
  openSnapshot: number | undefined;
}

export const EMPTY_DATA: ConsoleData = {
  seq: -1,
  version: '',
  plugins: [],
  calls: CallMap.EMPTY,
  callIds: [],
  workspaces: [],
  approvals: [],
  callApprovals: [],
  policy: undefined,
  recovery: undefined,
  bridge: undefined,
  metrics: undefined,
  elicitations: undefined,
  agents: [],
  gaps: 0,
  openSnapshot: undefined,
};

function fromSnapshot(seq: number, snapshot: ControlSnapshot): ConsoleData {
  const recent = snapshot.calls.slice(-MAX_CALLS);
  return {
    seq,
    version: snapshot.version,
    plugins: snapshot.plugins,
    calls: CallMap.of(recent),
    callIds: recent.map((c) => c.callId),
    workspaces: snapshot.workspaces,
    approvals: snapshot.approvals,
    callApprovals: (snapshot.callApprovals ?? []).slice(-MAX_CALL_APPROVALS),
    policy: snapshot.policy,
    recovery: snapshot.recovery,
    bridge: snapshot.bridge,
    metrics: snapshot.metrics,
    elicitations: snapshot.elicitations,
    agents: snapshot.agents ?? [],
    gaps: 0,
    openSnapshot: seq,
  };
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
}

function draft(data: ConsoleData): Draft {
  return { data, callChanges: new Map(), addedIds: [] };
}

function getCall(d: Draft, callId: string): CallView | undefined {
  return d.callChanges.has(callId) ? d.callChanges.get(callId) : d.data.calls.get(callId);
}

function applyEvent(d: Draft, event: ControlEvent): void {
  const data = d.data;
  switch (event.type) {
    case 'plugin.connected':
    case 'plugin.updated':
      data.plugins = upsertBy(data.plugins, event.plugin, (p) => p.connectionId);
      return;
    case 'plugin.disconnected':
      data.plugins = data.plugins.filter((p) => p.connectionId !== event.connectionId);
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
      if (data.elicitations) data.elicitations = { ...data.elicitations, pending: upsertBy(data.elicitations.pending, event.elicitation, (e) => e.elicitationId) };
      return;
    case 'elicitation.resolved':
      if (data.elicitations) data.elicitations = { ...data.elicitations, pending: data.elicitations.pending.filter((e) => e.elicitationId !== event.elicitationId) };
      return;
    case 'elicitation.answerer':
      data.elicitations = { pending: data.elicitations?.pending ?? [], answerer: event.answerer };
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

/** Applies frames (single events, batches and snapshot parts alike) in order and returns the new state (the input is not modified). */
export function applyFrames(state: ConsoleData, frames: readonly ControlWireFrame[]): ConsoleData {
  let d = draft({ ...state });
  for (const frame of frames) {
    if (frame.type === 'snapshot') {
      finishCalls(d);
      d = draft(fromSnapshot(frame.seq, frame.snapshot));
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

export function pendingCallApprovals(data: ConsoleData): CallApprovalView[] {
  return data.callApprovals.filter((a) => a.state === 'pending');
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
}

/**
 * Plugins grouped by project, newest project first as the core orders them. With single routing every
 * agent uses the one project; with multi routing an agent counts under the project its calls go to.
 */
export function projectGroups(data: ConsoleData): ProjectGroup[] {
  const groups = new Map<string, ProjectGroup>();
  const single = data.bridge?.projectRouting !== 'multi';
  for (const plugin of data.plugins) {
    const project = plugin.project;
    const key = single ? 'single' : (project?.key ?? plugin.connectionId);
    let group = groups.get(key);
    if (!group) {
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
      };
      groups.set(key, group);
    }
    (plugin.role === 'editor' ? group.editors : group.runtimes).push(plugin);
  }
  for (const agent of data.agents) {
    const group = single ? groups.get('single') : agent.projectKey === undefined ? undefined : groups.get(agent.projectKey);
    group?.agents.push(agent);
  }
  return [...groups.values()];
}
