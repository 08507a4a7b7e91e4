import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenePlugin, type RunningScenePlugin } from '../../../../plugins/examples/scene/plugin.js';
import { callContext, startBridge, toolNames, until, type TestBridge } from './harness.js';

const FAST = { reconnectDelaysMs: [50] };

async function withBridge(options: Parameters<typeof startBridge>[0], body: (b: TestBridge, plugins: RunningScenePlugin[]) => Promise<void>): Promise<void> {
  const bridge = await startBridge(options);
  const plugins: RunningScenePlugin[] = [];
  try {
    await body(bridge, plugins);
  } finally {
    for (const p of plugins) await p.stop();
    await bridge.close();
  }
}

describe('editor and runtime over the real hub', () => {
  test('side by side: shared tools go to the editor, runtime-only tools to the runtime, and both are listed', () =>
    withBridge({}, async ({ endpoint, bridge }, plugins) => {
      const editor = await startScenePlugin({ endpoint, role: 'editor', ...FAST });
      // The runtime connects straight over WebSockets, without the negotiate round trip.
      const runtime = await startScenePlugin({ endpoint, role: 'runtime', skipNegotiation: true, ...FAST });
      plugins.push(editor, runtime);
      await until(bridge, () => toolNames(bridge).includes('simulate-step') && bridge.pluginViews().length === 2, 'both plugins');
      assert.deepEqual(toolNames(bridge), ['add-object', 'list-objects', 'remove-object', 'simulate-step']);
      assert.deepEqual(bridge.pluginViews().map((v) => v.role).sort(), ['editor', 'runtime']);

      const added = await bridge.tools.callTool('add-object', { name: 'Crate', kind: 'cube', position: { x: 0, y: 2, z: 0 } }, callContext());
      assert.equal(added.error?.kind, undefined, JSON.stringify(added.result));
      assert.equal(editor.scene.size, 1);
      assert.equal(runtime.scene.size, 0);

      runtime.scene.add({ name: 'Ball', kind: 'sphere', position: { x: 0, y: 1, z: 0 } });
      const stepped = await bridge.tools.callTool('simulate-step', { steps: 5 }, callContext());
      assert.equal(stepped.error?.kind, undefined, JSON.stringify(stepped.result));
      assert.deepEqual(stepped.result.structuredContent, { tick: 5, moved: 1 });
    }));

  test('a new connection replaces only the older one of its own role', () =>
    withBridge({}, async ({ endpoint, bridge }, plugins) => {
      const editor1 = await startScenePlugin({ endpoint, role: 'editor', ...FAST });
      const runtime = await startScenePlugin({ endpoint, role: 'runtime', ...FAST });
      plugins.push(editor1, runtime);
      const stopped = new Promise<string>((resolve) => editor1.plugin.on('stopped', ({ reason }) => resolve(reason)));
      const editor2 = await startScenePlugin({ endpoint, role: 'editor', ...FAST });
      plugins.push(editor2);
      assert.match(await stopped, /Replaced by a newer editor connection/);
      await until(bridge, () => bridge.pluginViews().length === 2 && editor1.plugin.state === 'disconnected', 'editor1 gone');
      assert.deepEqual(bridge.pluginViews().map((v) => v.role).sort(), ['editor', 'runtime']);

      await bridge.tools.callTool('add-object', { name: 'A', kind: 'light' }, callContext());
      assert.equal(editor2.scene.size, 1);
      assert.equal(editor1.scene.size, 0);
      assert.equal(runtime.scene.size, 0);
    }));

  test('while the editor is awaited a shared-tool call waits for it and the returning editor serves it', () =>
    withBridge({ pluginReconnectWaitSeconds: 5 }, async ({ endpoint, bridge }, plugins) => {
      const editor = await startScenePlugin({ endpoint, role: 'editor', ...FAST });
      const runtime = await startScenePlugin({ endpoint, role: 'runtime', ...FAST });
      plugins.push(editor, runtime);
      await until(bridge, () => toolNames(bridge).includes('simulate-step') && toolNames(bridge).includes('add-object'), 'both catalogues');
      await editor.plugin.disconnect();
      await until(bridge, () => bridge.pluginViews().some((v) => v.state === 'awaited'), 'editor awaited');
      const awaited = bridge.pluginViews().find((v) => v.state === 'awaited');
      assert.equal(awaited?.role, 'editor');
      assert.equal(typeof awaited?.awaitedUntil, 'number');

      // Runtime-only tools keep working while the editor is away.
      const stepped = await bridge.tools.callTool('simulate-step', {}, callContext());
      assert.equal(stepped.error?.kind, undefined);

      const pending = bridge.tools.callTool('add-object', { name: 'Late', kind: 'cube' }, callContext());
      await editor.plugin.connect();
      const outcome = await pending;
      assert.equal(outcome.error?.kind, undefined, JSON.stringify(outcome.result));
      assert.equal(editor.scene.size, 1);
      assert.equal(runtime.scene.size, 0);
      assert.equal(bridge.pluginViews().find((v) => v.role === 'editor')?.reconnects, 1);
    }));

  test('with no editor connected or awaited, the runtime serves shared tools', () =>
    withBridge({ pluginReconnectWaitSeconds: 0.2 }, async ({ endpoint, bridge }, plugins) => {
      const editor = await startScenePlugin({ endpoint, role: 'editor', ...FAST });
      const runtime = await startScenePlugin({ endpoint, role: 'runtime', ...FAST });
      plugins.push(editor, runtime);
      await until(bridge, () => bridge.pluginViews().length === 2 && toolNames(bridge).includes('simulate-step'), 'both plugins');
      await editor.plugin.disconnect();
      await until(bridge, () => !bridge.pluginViews().some((v) => v.role === 'editor' && v.state === 'connected'), 'editor left');
      // Sent while the editor is still awaited: it waits out the short window, then the runtime takes it.
      const outcome = await bridge.tools.callTool('add-object', { name: 'Fallback', kind: 'sphere' }, callContext());
      assert.equal(outcome.error?.kind, undefined, JSON.stringify(outcome.result));
      assert.equal(runtime.scene.size, 1);
      assert.equal(editor.scene.size, 0);
      await until(bridge, () => bridge.pluginViews().length === 1, 'awaited editor expired');
    }));

  test('a plugin the bridge drops reconnects by itself, handshakes again and re-publishes its tools', () =>
    withBridge({ pluginReconnectWaitSeconds: 5 }, async ({ endpoint, bridge, hub }, plugins) => {
      const editor = await startScenePlugin({ endpoint, role: 'editor', ...FAST });
      plugins.push(editor);
      await until(bridge, () => toolNames(bridge).length === 3, 'editor tools');
      const states: string[] = [];
      editor.plugin.on('state', (s) => states.push(s));
      const [first] = hub.connections();
      first?.close('test drop', true);
      await until(bridge, () => bridge.pluginViews().some((v) => v.state === 'connected' && v.connectionId !== first?.id && v.toolCount === 3), 'reconnected editor');
      assert.deepEqual(states, ['reconnecting', 'connected']);
      assert.equal(bridge.pluginViews().length, 1);
      const outcome = await bridge.tools.callTool('list-objects', { limit: 0 }, callContext());
      assert.deepEqual(outcome.result.structuredContent, { items: [], hasMore: false, totalCount: 0 });
    }));
});
