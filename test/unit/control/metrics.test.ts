import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTROL_COMMAND_NAMES, type CallView, type MetricsView, type PluginView } from '../../../src-main/contracts/index.js';
import { CallMetrics, createControlHub, METRICS_WINDOW_SECONDS, type ControlCommandHandlers } from '../../../src-main/control/index.js';
import { createWorld, sampleRecovery } from '../../integration/control/support/world.js';

const unused = (): never => {
  throw new Error('not used by this test');
};

const T0 = 1_700_000_000_000;

function call(id: string, patch: Partial<CallView> = {}): CallView {
  return { callId: id, agent: 'a', transport: 'mcp-http', tool: 'tool-a', target: 'host', status: 'running', startedAt: T0, requestBytes: 1, ...patch };
}

function finish(m: CallMetrics, id: string, at: number, durationMs: number, patch: Partial<CallView> = {}): void {
  m.observe(call(id, patch), at - durationMs);
  m.observe(call(id, { status: 'ok', durationMs, ...patch }), at);
}

/** Log bins are ~10% wide: a reported percentile is within that of the true value. */
function near(actual: number | undefined, expected: number): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) / expected <= 0.1, `${actual} should be within 10% of ${expected}`);
}

describe('call metrics', () => {
  test('rate, error ratio and latency percentiles over the last minute, one series point per second', () => {
    const m = new CallMetrics();
    for (let i = 0; i < 100; i++) finish(m, `c${i}`, T0 + 1000 * (i % 10), i + 1, i % 4 === 0 ? { status: 'error' } : {});
    const v: MetricsView = m.view(T0 + 9_500);
    assert.equal(v.callsPerSecond, 100 / METRICS_WINDOW_SECONDS);
    assert.equal(v.errorRatio, 0.25);
    near(v.p50Ms, 50);
    near(v.p99Ms, 99);
    assert.equal(v.series.calls.length, METRICS_WINDOW_SECONDS);
    assert.deepEqual(v.series.calls.slice(-10), Array(10).fill(10));
    assert.equal(v.series.calls.slice(0, -10).every((n) => n === 0), true);
    assert.equal(v.series.p50Ms.at(-11), null, 'no latency point for a second without calls');
    assert.deepEqual(v.activeAgents, ['a']);
    assert.equal(v.inFlight, 0);
  });

  test('running calls count as in flight, and calls older than the window fall out', () => {
    const m = new CallMetrics();
    finish(m, 'old', T0, 5);
    m.observe(call('running'), T0 + 1);
    assert.equal(m.view(T0 + 1000).inFlight, 1);
    const later = m.view(T0 + METRICS_WINDOW_SECONDS * 1000 + 1);
    assert.equal(later.callsPerSecond, 0);
    assert.equal(later.p50Ms, undefined);
    assert.deepEqual(later.activeAgents, []);
  });

  test('with an approval policy: a held call is not in flight, a refused call is no error and has no latency, latency leaves the wait out', () => {
    const m = new CallMetrics();
    const decision = (patch: Partial<NonNullable<CallView['policy']>>): NonNullable<CallView['policy']> => ({ action: 'ask', ruleIndex: 0, reason: 'r', decidedBy: 'operator', decision: 'allow-once', policyVersion: 1, ...patch });
    m.observe(call('held'), T0);
    m.observeApproval({ askId: 'a1', callId: 'held', state: 'pending' } as Parameters<CallMetrics['observeApproval']>[0]);
    let v = m.view(T0 + 10);
    assert.deepEqual([v.inFlight, v.held], [0, 1], 'held, not running');
    m.observeApproval({ askId: 'a1', callId: 'held', state: 'allowed' } as Parameters<CallMetrics['observeApproval']>[0]);
    assert.deepEqual([m.view(T0 + 20).inFlight, m.view(T0 + 20).held], [1, 0], 'allowed: running now');
    // Waited 300 s for the operator, then ran 5 ms.
    m.observe(call('held', { status: 'ok', durationMs: 300_005, policy: decision({ heldMs: 300_000 }) }), T0 + 1000);
    m.observe(call('denied'), T0);
    m.observe(call('denied', { status: 'error', errorCode: 'ApprovalDenied', durationMs: 4000, policy: decision({ decision: 'deny' }) }), T0 + 1000);
    m.observe(call('timeout'), T0);
    m.observe(call('timeout', { status: 'error', errorCode: 'ApprovalTimedOut', durationMs: 120_000, policy: decision({ decidedBy: 'timeout', decision: 'deny' }) }), T0 + 1000);
    finish(m, 'failed', T0 + 1000, 20, { status: 'error' });
    v = m.view(T0 + 1500);
    assert.equal(v.refused, 2);
    assert.equal(v.errorRatio, 0.5, 'one failed of the two that ran');
    assert.ok(v.p99Ms !== undefined && v.p99Ms < 25, `p99 ${v.p99Ms} ms is execution time`);
    assert.deepEqual(v.series.refused.slice(-2), [0, 2], 'both refusals in the second they ended');
    const stats = m.toolStats('tool-a');
    assert.deepEqual([stats.calls, stats.errors], [4, 1], 'refused calls count as calls, not as errors');
  });

  test('per-tool totals keep counting past the window', () => {
    const m = new CallMetrics();
    finish(m, 'x1', T0, 10, { tool: 'tool-b' });
    finish(m, 'x2', T0 + 120_000, 30, { tool: 'tool-b', status: 'error' });
    const stats = m.toolStats('tool-b');
    assert.equal(stats.calls, 2);
    assert.equal(stats.errors, 1);
    near(stats.p50Ms, 10);
    assert.deepEqual(m.toolStats('never-called'), { calls: 0, errors: 0 });
  });
});

describe('control hub metrics and plugin timelines', () => {
  test('publishMetrics sends the minute once when idle, and every time while calls are in the window', () => {
    const world = createWorld();
    const seen: string[] = [];
    world.hub.subscribe((e) => seen.push(e.type));
    world.hub.publishMetrics();
    world.hub.publishMetrics();
    assert.deepEqual(seen.filter((t) => t === 'metrics.updated').length, 1);
    world.startCall({ callId: 'k1' });
    world.finishCall('k1');
    world.hub.publishMetrics();
    world.hub.publishMetrics();
    assert.deepEqual(seen.filter((t) => t === 'metrics.updated').length, 3);
    assert.equal(world.hub.snapshotFrame().snapshot.metrics?.series.calls.reduce((a, b) => a + b, 0), 1);
  });

  test('a call held or released updates the header at once: running and waiting never count it both', () => {
    const world = createWorld();
    const metrics: MetricsView[] = [];
    world.hub.subscribe((e) => {
      if (e.type === 'metrics.updated') metrics.push(e.metrics);
    });
    world.startCall({ callId: 'h1' });
    world.hub.publishMetrics();
    assert.deepEqual([metrics.at(-1)?.inFlight, metrics.at(-1)?.held], [1, 0]);
    const approval = { askId: 'a1', callId: 'h1', state: 'pending' } as Parameters<CallMetrics['observeApproval']>[0];
    world.hub.publish({ type: 'callApproval.requested', approval });
    assert.deepEqual([metrics.at(-1)?.inFlight, metrics.at(-1)?.held], [0, 1], 'held: out of running, without waiting for the tick');
    world.hub.publish({ type: 'callApproval.decided', approval: { ...approval, state: 'allowed' } });
    assert.deepEqual([metrics.at(-1)?.inFlight, metrics.at(-1)?.held], [1, 0], 'allowed: running again');
  });

  test('a plugin detail carries its connection timeline across reconnects, with per-tool totals', async () => {
    const plugins = new Map<string, PluginView>();
    const hub = createControlHub({ version: 'test' });
    hub.serve({
      providers: {
        plugins: () => [...plugins.values()], workspaces: () => [], approvals: () => [], recovery: () => sampleRecovery(), bridge: unused, tools: unused,
        pluginCatalogue: (id) => (plugins.has(id) ? { tools: [{ name: 'add-object', inputSchema: { type: 'object' }, source: 'bridge' }], prompts: [], resources: [] } : undefined),
      },
      commands: Object.fromEntries(CONTROL_COMMAND_NAMES.map((name) => [name, unused])) as unknown as ControlCommandHandlers,
    });
    const connect = (view: PluginView) => {
      plugins.set(view.connectionId, view);
      hub.publish({ type: 'plugin.connected', plugin: view });
    };
    const base: PluginView = { connectionId: 'c1', role: 'editor', name: 'Scene', pluginVersion: '2.0.0', connectedAt: T0, reconnects: 0, toolCount: 1, promptCount: 0, resourceCount: 0, state: 'connected' };
    connect(base);
    plugins.delete('c1');
    hub.publish({ type: 'plugin.disconnected', connectionId: 'c1' });
    connect({ ...base, connectionId: 'c2', pluginVersion: '2.0.1', reconnects: 1 });
    hub.publish({ type: 'call.started', call: call('k1', { tool: 'add-object' }) });
    hub.publish({ type: 'call.finished', call: call('k1', { tool: 'add-object', status: 'error', durationMs: 4 }) });
    const detail = await hub.pluginDetail({ connectionId: 'c2' });
    assert.deepEqual(detail.timeline.map((e) => e.kind), ['connected', 'disconnected', 'reconnected']);
    assert.match(detail.timeline[2]!.detail, /plugin 2\.0\.1/);
    assert.deepEqual(detail.tools.map((t) => [t.name, t.stats.calls, t.stats.errors]), [['add-object', 1, 1]]);
    await assert.rejects(hub.pluginDetail({ connectionId: 'c1' }), /No plugin connection c1/);
  });
});
