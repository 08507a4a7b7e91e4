/** A minimal, valid console snapshot and metrics view for tests that build control frames by hand. */
import type { ControlSnapshot, MetricsView } from '../../src-main/contracts/console.js';

export function idleMetrics(patch: Partial<MetricsView> = {}): MetricsView {
  return { at: 0, windowSeconds: 60, callsPerSecond: 0, errorRatio: 0, refused: 0, inFlight: 0, held: 0, activeAgents: [], series: { calls: [], errors: [], refused: [], p50Ms: [], p99Ms: [] }, ...patch };
}

export function controlSnapshot(patch: Partial<ControlSnapshot> = {}): ControlSnapshot {
  return {
    version: '1',
    plugins: [],
    calls: [],
    workspaces: [],
    approvals: [],
    callApprovals: [],
    agents: [],
    notices: [],
    metrics: idleMetrics(),
    recovery: { stateDir: '/s', healthy: true, entries: [] },
    bridge: { running: true, host: '127.0.0.1', port: 1, hubUrl: 'h', mcpUrl: 'm', apiUrl: 'a', transports: [], snippets: [] },
    ...patch,
  };
}
