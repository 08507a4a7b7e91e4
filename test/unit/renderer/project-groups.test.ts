import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFrames, EMPTY_DATA, projectGroups } from '../../../src-renderer/src/store/reducer.js';
import type { AgentView, BridgeView, PluginView } from '../../../src-main/contracts/console.js';
import { controlSnapshot } from '../../support/control-snapshot.js';

const recovery = { stateDir: '/s', healthy: true, entries: [] };
const bridge = (projectRouting: 'single' | 'multi'): BridgeView => ({ running: true, host: 'h', port: 1, hubUrl: 'h', mcpUrl: 'm', apiUrl: 'a', transports: [], snippets: [], projectRouting, projects: [] });
const plugin = (id: string, role: 'editor' | 'runtime', key: string, projectName: string): PluginView => ({
  connectionId: id,
  role,
  name: projectName,
  connectedAt: 0,
  reconnects: 0,
  toolCount: 1,
  promptCount: 0,
  resourceCount: 0,
  state: 'connected',
  project: { key, label: `unity:${projectName}`, engine: 'unity', projectName, pin: key.slice(0, 4) },
});
const agent = (sessionId: string, projectKey?: string): AgentView => ({ sessionId, transport: 'mcp-http', clientName: sessionId, connectedAt: 0, ...(projectKey ? { projectKey } : {}) });

test('multi routing: plugins group by project key with editor/runtime slots and the agents routed to each', () => {
  const plugins = [plugin('c1', 'editor', 'aaaa', 'A'), plugin('c2', 'runtime', 'aaaa', 'A'), plugin('c3', 'editor', 'bbbb', 'B')];
  const data = applyFrames(EMPTY_DATA, [
    { type: 'snapshot', seq: 1, snapshot: controlSnapshot({ plugins, recovery, bridge: bridge('multi'), agents: [agent('x', 'bbbb'), agent('y')] }) },
    { type: 'event', seq: 2, event: { type: 'agents.changed', agents: [agent('x', 'bbbb'), agent('z', 'aaaa')] } },
  ]);
  const groups = projectGroups(data);
  assert.deepEqual(
    groups.map((g) => ({ key: g.key, editors: g.editors.map((p) => p.connectionId), runtimes: g.runtimes.map((p) => p.connectionId), agents: g.agents.map((a) => a.sessionId) })),
    [
      { key: 'aaaa', editors: ['c1'], runtimes: ['c2'], agents: ['z'] },
      { key: 'bbbb', editors: ['c3'], runtimes: [], agents: ['x'] },
    ],
  );
  assert.equal(groups[0]?.pin, 'aaaa');
});

test('single routing: one group holds every plugin and every agent', () => {
  const plugins = [plugin('c1', 'editor', 'aaaa', 'A'), plugin('c3', 'runtime', 'bbbb', 'B')];
  const data = applyFrames(EMPTY_DATA, [
    { type: 'snapshot', seq: 1, snapshot: controlSnapshot({ plugins, recovery, bridge: bridge('single'), agents: [agent('x'), agent('y')] }) },
  ]);
  const groups = projectGroups(data);
  assert.equal(groups.length, 1);
  assert.equal(groups[0]?.agents.length, 2);
  assert.equal(groups[0]?.editors.length, 1);
  assert.equal(groups[0]?.runtimes.length, 1);
  assert.equal(groups[0]?.pin, undefined, 'no pin is offered while pinned routes are off');
});
