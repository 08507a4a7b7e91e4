import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFrames, EMPTY_DATA, MAX_CALL_APPROVALS, MAX_CALLS, MAX_NOTICES, pendingApprovals, pendingCallApprovals } from '../../../src-renderer/src/store/reducer.js';
import type { CallApprovalView, CallView, ControlEvent, ControlFrame, ControlSnapshot, ControlWireFrame } from '../../../src-main/contracts/console.js';
import { controlSnapshot, idleMetrics } from '../../support/control-snapshot.js';

const bridge = { running: true, host: '127.0.0.1', port: 1, hubUrl: 'h', mcpUrl: 'm', apiUrl: 'a', transports: [], snippets: [] };
const recovery = { stateDir: '/s', healthy: true, entries: [] };

function snapshot(seq: number, patch: Partial<ControlSnapshot> = {}): ControlFrame {
  return { type: 'snapshot', seq, snapshot: controlSnapshot({ recovery, bridge, ...patch }) };
}
function ev(seq: number, event: ControlEvent): ControlFrame {
  return { type: 'event', seq, event };
}
function call(id: string, patch: Partial<CallView> = {}): CallView {
  return { callId: id, agent: 'a', transport: 'mcp-http', tool: 't', target: 'host', status: 'running', startedAt: 0, requestBytes: 1, ...patch };
}
const plugin = (id: string, name = 'p') => ({ connectionId: id, role: 'editor' as const, name, connectedAt: 0, reconnects: 0, toolCount: 1, promptCount: 0, resourceCount: 0, state: 'connected' as const });

function batch(fromSeq: number, events: ControlEvent[]): ControlWireFrame {
  return { type: 'events', fromSeq, events };
}

describe('console reducer', () => {
  test('the header metrics come from the snapshot and then from metrics events, never from the call history', () => {
    const metrics = (callsPerSecond: number) => idleMetrics({ callsPerSecond });
    let data = applyFrames(EMPTY_DATA, [snapshot(3, { metrics: metrics(2) })]);
    assert.equal(data.metrics?.callsPerSecond, 2);
    data = applyFrames(data, [ev(4, { type: 'call.started', call: call('x') }), ev(5, { type: 'call.finished', call: call('x', { status: 'ok', durationMs: 1 }) })]);
    assert.equal(data.metrics?.callsPerSecond, 2, 'calls alone do not move the header');
    data = applyFrames(data, [batch(6, [{ type: 'metrics.updated', metrics: metrics(5) }])]);
    assert.equal(data.metrics?.callsPerSecond, 5);
  });

  test('nested requests trace under their call and survive its finish; elicitation events keep the pending list', () => {
    const nested = { callId: 'x', nestedId: 'n1', kind: 'elicitation' as const, status: 'pending' as const, startedAt: 1, summary: 'Name?' };
    const pending = { elicitationId: 'e1', callId: 'x', tool: 't', agent: 'a', message: 'Name?', requestedSchema: { type: 'object' }, createdAt: 1 };
    const data = applyFrames(EMPTY_DATA, [
      snapshot(0, { elicitations: { answerer: 'agent', pending: [], sampling: [] } }),
      ev(1, { type: 'call.started', call: call('x') }),
      ev(2, { type: 'call.nested', nested }),
      ev(3, { type: 'elicitation.answerer', answerer: 'console' }),
      ev(4, { type: 'elicitation.pending', elicitation: pending }),
      ev(5, { type: 'call.nested', nested: { ...nested, status: 'ok', outcome: 'accept', durationMs: 5 } }),
      ev(6, { type: 'elicitation.resolved', elicitationId: 'e1' }),
      ev(7, { type: 'call.finished', call: call('x', { status: 'ok' }) }),
    ]);
    assert.deepEqual(data.calls.get('x')?.nested, [{ ...nested, status: 'ok', outcome: 'accept', durationMs: 5 }]);
    assert.equal(data.calls.get('x')?.status, 'ok');
    assert.deepEqual(data.elicitations, { answerer: 'console', pending: [], sampling: [] });
  });

  test('a batch applies exactly like the single events it stands for', () => {
    const events: ControlEvent[] = [
      { type: 'call.started', call: call('a') },
      { type: 'call.started', call: call('b') },
      { type: 'call.progress', callId: 'a', progress: { progress: 1, total: 2 } },
      { type: 'call.finished', call: call('b', { status: 'ok', durationMs: 3 }) },
      { type: 'plugin.connected', plugin: plugin('c1') },
    ];
    const single = applyFrames(EMPTY_DATA, [snapshot(10), ...events.map((e, i) => ev(11 + i, e))]);
    const batched = applyFrames(EMPTY_DATA, [snapshot(10), batch(11, events.slice(0, 2)), batch(13, events.slice(2))]);
    assert.deepEqual(batched, single);
    assert.equal(batched.seq, 15);
    assert.equal(batched.gaps, 0);
  });

  test('a batch that overlaps the applied sequence applies only its new events; one past a hole counts a gap', () => {
    const start = applyFrames(EMPTY_DATA, [snapshot(0), batch(1, [{ type: 'call.started', call: call('x') }, { type: 'call.started', call: call('y') }])]);
    const overlapped = applyFrames(start, [batch(2, [{ type: 'call.started', call: call('dup') }, { type: 'call.started', call: call('z') }])]);
    assert.deepEqual(overlapped.callIds, ['x', 'y', 'z']);
    assert.equal(overlapped.gaps, 0);
    const holed = applyFrames(overlapped, [batch(5, [{ type: 'call.started', call: call('w') }])]);
    assert.equal(holed.gaps, 1);
    assert.equal(holed.seq, 5);
  });

  test('a resync snapshot after a batch replaces the batched state', () => {
    const state = applyFrames(EMPTY_DATA, [snapshot(0), batch(1, [{ type: 'call.started', call: call('gone') }]), snapshot(9, { calls: [call('kept')] }), ev(10, { type: 'call.started', call: call('new') })]);
    assert.deepEqual(state.callIds, ['kept', 'new']);
    assert.equal(state.seq, 10);
  });

  test('snapshot parts put older calls before the snapshot calls, in order, across deliveries', () => {
    const part = (seq: number, ids: string[]): ControlWireFrame => ({ type: 'snapshotCalls', seq, calls: ids.map((id) => call(id)) });
    let state = applyFrames(EMPTY_DATA, [snapshot(7, { calls: [call('e'), call('f')] }), part(7, ['c', 'd'])]);
    state = applyFrames(state, [part(7, ['a', 'b'])]);
    assert.deepEqual(state.callIds, ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.equal(state.calls.size, 6);
    state = applyFrames(state, [ev(8, { type: 'call.started', call: call('g') }), part(7, ['late'])]);
    assert.deepEqual(state.callIds, ['a', 'b', 'c', 'd', 'e', 'f', 'g'], 'a part after an event is stale and ignored');
    const resynced = applyFrames(state, [snapshot(20, { calls: [call('z')] }), part(7, ['old']), part(20, ['y', 'z'])]);
    assert.deepEqual(resynced.callIds, ['y', 'z'], 'a part of an earlier snapshot is ignored; a call already known is not repeated');
  });

  test('snapshot parts fill the log only up to its cap, keeping the newest', () => {
    const recent = Array.from({ length: MAX_CALLS - 2 }, (_, i) => call(`r${i}`));
    const state = applyFrames(EMPTY_DATA, [snapshot(1, { calls: recent }), { type: 'snapshotCalls', seq: 1, calls: [call('o1'), call('o2'), call('o3')] }]);
    assert.equal(state.callIds.length, MAX_CALLS);
    assert.deepEqual(state.callIds.slice(0, 3), ['o2', 'o3', 'r0']);
    assert.equal(state.calls.has('o1'), false);
  });

  test('events before the first snapshot are ignored; the snapshot then deltas build the state', () => {
    const state = applyFrames(EMPTY_DATA, [
      ev(1, { type: 'plugin.connected', plugin: plugin('early') }),
      snapshot(3, { plugins: [plugin('c1')] }),
      ev(4, { type: 'plugin.connected', plugin: plugin('c2') }),
      ev(5, { type: 'plugin.updated', plugin: plugin('c1', 'renamed') }),
      ev(6, { type: 'plugin.disconnected', connectionId: 'c2' }),
    ]);
    assert.equal(state.seq, 6);
    assert.deepEqual(state.plugins.map((p) => [p.connectionId, p.name]), [['c1', 'renamed']]);
    assert.equal(state.gaps, 0);
  });

  test('events at or below the applied sequence are not applied twice', () => {
    const once = applyFrames(EMPTY_DATA, [snapshot(0), ev(1, { type: 'call.started', call: call('k') })]);
    const again = applyFrames(once, [ev(1, { type: 'call.started', call: call('k') }), ev(1, { type: 'call.started', call: call('dup') })]);
    assert.deepEqual(again.callIds, ['k']);
    assert.equal(again.seq, 1);
  });

  test('calls start, progress and finish in place, keeping their order', () => {
    const state = applyFrames(EMPTY_DATA, [
      snapshot(10, { calls: [call('a')] }),
      ev(11, { type: 'call.started', call: call('b') }),
      ev(12, { type: 'call.progress', callId: 'a', progress: { progress: 5, total: 10 } }),
      ev(13, { type: 'call.finished', call: call('a', { status: 'ok', durationMs: 7 }) }),
      ev(14, { type: 'call.progress', callId: 'unknown', progress: { progress: 1 } }),
    ]);
    assert.deepEqual(state.callIds, ['a', 'b']);
    assert.equal(state.calls.get('a')?.status, 'ok');
    assert.equal(state.calls.get('b')?.status, 'running');
    assert.equal(state.calls.size, 2);
  });

  test('a progress event keeps the rest of the call', () => {
    const state = applyFrames(EMPTY_DATA, [snapshot(0, { calls: [call('a', { tool: 'slow' })] }), ev(1, { type: 'call.progress', callId: 'a', progress: { progress: 1, message: 'x' } })]);
    assert.equal(state.calls.get('a')?.tool, 'slow');
    assert.deepEqual(state.calls.get('a')?.progress, { progress: 1, message: 'x' });
  });

  test('the input state is never modified', () => {
    const before = applyFrames(EMPTY_DATA, [snapshot(0, { calls: [call('a')] })]);
    const copyIds = [...before.callIds];
    applyFrames(before, [ev(1, { type: 'call.started', call: call('b') }), ev(2, { type: 'call.finished', call: call('a', { status: 'error' }) })]);
    assert.deepEqual(before.callIds, copyIds);
    assert.equal(before.calls.get('a')?.status, 'running');
    assert.equal(before.calls.has('b'), false);
  });

  test('a resync snapshot replaces everything and restarts the sequence', () => {
    const first = applyFrames(EMPTY_DATA, [snapshot(0, { plugins: [plugin('old')] }), ev(1, { type: 'call.started', call: call('x') })]);
    const resynced = applyFrames(first, [snapshot(500, { plugins: [plugin('new')] }), ev(500, { type: 'call.started', call: call('stale') }), ev(501, { type: 'call.started', call: call('fresh') })]);
    assert.deepEqual(resynced.plugins.map((p) => p.connectionId), ['new']);
    assert.deepEqual(resynced.callIds, ['fresh']);
    assert.equal(resynced.seq, 501);
  });

  test('a gap in sequence numbers is counted, not hidden', () => {
    const state = applyFrames(EMPTY_DATA, [snapshot(0), ev(1, { type: 'call.started', call: call('a') }), ev(3, { type: 'call.started', call: call('b') })]);
    assert.equal(state.gaps, 1);
    assert.deepEqual(state.callIds, ['a', 'b']);
  });

  test('keeps at most MAX_CALLS calls, evicting the oldest', () => {
    const frames: ControlFrame[] = [snapshot(0)];
    for (let i = 1; i <= MAX_CALLS + 25; i++) frames.push(ev(i, { type: 'call.started', call: call(`c${i}`) }));
    const state = applyFrames(EMPTY_DATA, frames);
    assert.equal(state.callIds.length, MAX_CALLS);
    assert.equal(state.calls.size, MAX_CALLS);
    assert.equal(state.callIds[0], 'c26');
    assert.equal(state.calls.has('c25'), false);
  });

  test('approvals are requested then decided in place; pending ones are listed', () => {
    const approval = { approvalId: 'a1', workspaceId: 'w', transactionId: 't', revision: 1, requestedAt: 0, files: [], state: 'pending' as const };
    const requested = applyFrames(EMPTY_DATA, [snapshot(0), ev(1, { type: 'approval.requested', approval })]);
    assert.equal(pendingApprovals(requested).length, 1);
    const decided = applyFrames(requested, [ev(2, { type: 'approval.decided', approval: { ...approval, state: 'denied', reason: 'no' } })]);
    assert.equal(pendingApprovals(decided).length, 0);
    assert.equal(decided.approvals[0]?.reason, 'no');
  });

  test('workspace, recovery and bridge updates replace their views', () => {
    const ws = { workspaceId: 'w', root: '/r', name: 'r', epoch: 1, trusted: true, mode: 'transactional', documentCount: 1 };
    const state = applyFrames(EMPTY_DATA, [
      snapshot(0),
      ev(1, { type: 'workspace.updated', workspace: ws }),
      ev(2, { type: 'workspace.updated', workspace: { ...ws, epoch: 2 } }),
      ev(3, { type: 'recovery.state', recovery: { ...recovery, healthy: false } }),
      ev(4, { type: 'bridge.state', bridge: { ...bridge, running: false } }),
    ]);
    assert.deepEqual(state.workspaces.map((w) => w.epoch), [2]);
    assert.equal(state.recovery?.healthy, false);
    assert.equal(state.bridge?.running, false);
  });

  test('held tool calls and policy edits follow their events; pending holds are never evicted', () => {
    const held = (askId: string, state: CallApprovalView['state'] = 'pending'): CallApprovalView => ({
      askId, callId: `c-${askId}`, digest: 'd', policyVersion: 1, tool: 'remove-object', agent: 'a', agentName: 'a', transport: 'mcp-http', target: 'host',
      arguments: {}, argumentBytes: 2, ruleIndex: 0, reason: 'r', requestedAt: 0, expiresAt: 1, state,
    });
    const policy = { path: '/p.json', version: 2, document: { rules: [{ tool: 'x', action: 'allow' as const }] }, updatedAt: 5, findings: [] };
    let data = applyFrames(EMPTY_DATA, [snapshot(1, { callApprovals: [held('old', 'denied')] })]);
    data = applyFrames(data, [
      ev(2, { type: 'callApproval.requested', approval: held('p') }),
      ev(3, { type: 'policy.updated', policy, change: { kind: 'edited', by: 'operator', previousVersion: 1, version: 2, at: 5 } }),
    ]);
    assert.deepEqual(pendingCallApprovals(data).map((a) => a.askId), ['p']);
    assert.equal(data.policy, policy);
    data = applyFrames(data, [ev(4, { type: 'callApproval.decided', approval: held('p', 'allowed') })]);
    assert.deepEqual(pendingCallApprovals(data), []);
    assert.deepEqual(data.callApprovals.map((a) => [a.askId, a.state]), [['old', 'denied'], ['p', 'allowed']]);
    const flood = Array.from({ length: MAX_CALL_APPROVALS + 5 }, (_, i) => ev(6 + i, { type: 'callApproval.decided', approval: held(`f${i}`, 'timedOut') }));
    data = applyFrames(data, [ev(5, { type: 'callApproval.requested', approval: held('keep') }), ...flood]);
    assert.equal(data.callApprovals.length, MAX_CALL_APPROVALS);
    assert.ok(data.callApprovals.some((a) => a.askId === 'keep' && a.state === 'pending'));
  });
});

describe('console reducer: notices and lost plugins', () => {
  const awaited = (id: string, name = 'p') => ({ ...plugin(id, name), state: 'awaited' as const, awaitedUntil: 50_000 });

  test('a raised notice is kept (bounded, once per id) and survives a resync snapshot', () => {
    const notice = (id: string) => ({ id, level: 'info' as const, title: id, message: '', subject: { kind: 'bridge' as const, id: 'b', label: 'the bridge' }, at: 1 });
    let state = applyFrames(EMPTY_DATA, [snapshot(0), ev(1, { type: 'notice.raised', notice: notice('n1') }), ev(2, { type: 'notice.raised', notice: notice('n1') })]);
    assert.deepEqual(state.notices.map((n) => n.id), ['n1']);
    state = applyFrames(state, [snapshot(5)]);
    assert.deepEqual(state.notices.map((n) => n.id), ['n1'], 'a snapshot without standing notices keeps the ones shown');
    state = applyFrames(state, [snapshot(6, { notices: [{ ...notice('standing'), ttlMs: 600_000 }] })]);
    assert.deepEqual(state.notices.map((n) => n.id), ['n1', 'standing'], 'standing notices join them');
    const many = Array.from({ length: MAX_NOTICES + 5 }, (_, i): ControlEvent => ({ type: 'notice.raised', notice: notice(`m${i}`) }));
    state = applyFrames(state, [batch(7, many)]);
    assert.equal(state.notices.length, MAX_NOTICES);
  });

  test('a lost plugin: since when, a notice naming it, then its departure with the reason', () => {
    let state = applyFrames(EMPTY_DATA, [snapshot(0, { plugins: [plugin('c1', 'scene')] })], 1_000);
    state = applyFrames(state, [ev(1, { type: 'plugin.updated', plugin: awaited('c1', 'scene') })], 2_000);
    assert.equal(state.plugins[0]?.disconnectedAt, 2_000, 'lost when the console saw it go');
    assert.deepEqual(state.notices.map((n) => [n.title, n.subject.kind, n.subject.id]), [['Plugin connection lost', 'plugin', 'c1']]);
    state = applyFrames(state, [ev(2, { type: 'plugin.disconnected', connectionId: 'c1' })], 9_000);
    assert.deepEqual(state.plugins, []);
    assert.deepEqual(state.departed.map((d) => [d.plugin.name, d.at, d.reason, d.replacedBy]), [['scene', 2_000, 'not back in time', undefined]]);
    assert.deepEqual(state.notices.map((n) => n.title), ['Plugin gone'], 'the news replaces the earlier notice of that connection');
  });

  test('a replaced editor says who took its slot, in either order of the events; a plugin coming back is no replacement', () => {
    const newer = { ...plugin('c2', 'other'), connectedAt: 5 };
    const connectedFirst = applyFrames(EMPTY_DATA, [snapshot(0, { plugins: [plugin('c1', 'scene')] }), ev(1, { type: 'plugin.connected', plugin: newer }), ev(2, { type: 'plugin.disconnected', connectionId: 'c1' })]);
    assert.equal(connectedFirst.departed[0]?.replacedBy, 'c2');
    const goneFirst = applyFrames(EMPTY_DATA, [snapshot(0, { plugins: [plugin('c1', 'scene')] }), ev(1, { type: 'plugin.disconnected', connectionId: 'c1' }), ev(2, { type: 'plugin.connected', plugin: newer })]);
    assert.equal(goneFirst.departed[0]?.replacedBy, 'c2');
    assert.equal(goneFirst.notices.at(-1)?.title, 'Plugin replaced');
    const back = applyFrames(EMPTY_DATA, [snapshot(0, { plugins: [awaited('c1', 'scene')] }), ev(1, { type: 'plugin.connected', plugin: { ...plugin('c3', 'scene'), reconnects: 1 } }), ev(2, { type: 'plugin.disconnected', connectionId: 'c1' })]);
    assert.deepEqual(back.departed, []);
    assert.equal(back.notices.at(-1)?.title, 'Plugin back');
  });

  test('a console opened after a plugin left sees its departure from the snapshot: last seen, why, who took its slot', () => {
    const runtime = { ...awaited('r1', 'scene-runtime'), role: 'runtime' as const };
    const editor = { ...plugin('e1', 'scene-editor'), connectedAt: 10 };
    const successor = { ...plugin('e2', 'scene-editor-2'), connectedAt: 3_000 };
    const late = { ...plugin('r2', 'scene-runtime-2'), role: 'runtime' as const, connectedAt: 60_000 };
    const departedPlugins = [
      { plugin: editor, at: 3_100 },
      { plugin: runtime, at: 2_000 },
    ];
    const state = applyFrames(EMPTY_DATA, [snapshot(0, { plugins: [successor, late], departedPlugins })], 90_000);
    assert.deepEqual(
      state.departed.map((d) => [d.plugin.name, d.at, d.reason, d.replacedBy]),
      [
        ['scene-editor', 3_100, undefined, 'e2'],
        ['scene-runtime', 2_000, 'not back in time', undefined],
      ],
      'a runtime that connected a minute later did not replace the lost one',
    );
    assert.deepEqual(applyFrames(state, [snapshot(1)]).departed.length, 2, 'a server without the record leaves the departures shown');
  });

  test('each field is declared once: the empty state and a snapshot hold the same fields', () => {
    assert.deepEqual(Object.keys(applyFrames(EMPTY_DATA, [snapshot(0)])).sort(), Object.keys(EMPTY_DATA).sort());
  });
});
