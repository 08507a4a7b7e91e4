import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join, newRegistry, tool } from './fixtures.js';

describe('replacement', () => {
  test('two 8.14+ plugins of different roles stay side by side; a new one replaces only its own role', () => {
    const registry = newRegistry();
    const editor = join(registry, { role: 'editor' });
    const runtime = join(registry, { role: 'runtime' });
    assert.deepEqual(runtime.replaced, []);
    const editor2 = join(registry, { role: 'editor' });
    assert.deepEqual(editor2.replaced, [editor.id]);
    assert.deepEqual(registry.active().map((r) => r.connectionId).sort(), [editor2.id, runtime.id].sort());
  });

  test('when either side is an 8.0-era plugin the newest connection wins regardless of role', () => {
    const registry = newRegistry();
    const legacyEditor = join(registry, { mcpPluginVersion: null });
    const runtime = join(registry, { role: 'runtime' });
    assert.deepEqual(runtime.replaced, [legacyEditor.id]);
    // An 8.x plugin is always served as an editor (McpPlugin.Server has no roles), whatever its environment says.
    const legacyRuntime = join(registry, { environment: 'game (runtime)', mcpPluginVersion: null });
    assert.deepEqual(legacyRuntime.replaced, [runtime.id]);
    assert.equal(registry.active()[0]?.role, 'editor');
    assert.equal(registry.active()[0]?.guarded, false);
  });

  test('an incompatible handshake activates nothing and replaces nothing', () => {
    const registry = newRegistry();
    const editor = join(registry, { role: 'editor' });
    registry.connect({ connectionId: 'x', query: new URLSearchParams('client_role=editor'), headers: {}, connectedAt: 0 });
    const outcome = registry.handshake('x', { requestId: '', apiVersion: '1.0.0', pluginVersion: '', environment: '', mcpPluginVersion: '8.16.0' });
    assert.equal(outcome.response.compatible, false);
    assert.deepEqual(outcome.replaced, []);
    assert.deepEqual(registry.active().map((r) => r.connectionId), [editor.id]);
  });
});

describe('catalogue and events', () => {
  test('tool changes are announced once; an identical re-announcement is not a change', () => {
    const registry = newRegistry();
    let changes = 0;
    registry.events.on('toolsChanged', () => changes++);
    const { id } = join(registry, { role: 'editor' });
    registry.setTools(id, [tool('a')]);
    registry.setTools(id, [tool('a')]);
    assert.equal(changes, 1);
    registry.setTools(id, [tool('a'), tool('b')]);
    assert.equal(changes, 2);
    assert.deepEqual(registry.publishedTools().map((t) => t.tool.name), ['a', 'b']);
  });

  test('a departed plugin is awaited, its tools still published, until the wait ends; then both go', () => {
    const registry = newRegistry();
    const { id } = join(registry, { role: 'editor', name: 'scene', tools: ['a'] });
    const gone: string[] = [];
    let toolChanges = 0;
    registry.events.on('pluginDisconnected', ({ connectionId }) => gone.push(connectionId));
    registry.events.on('toolsChanged', () => toolChanges++);
    registry.disconnect(id, 1_000, 5_000);
    assert.deepEqual(registry.publishedTools().map((p) => p.tool.name), ['a'], 'a call during the reconnect is held, not refused as unknown');
    const [view] = registry.views(1_000);
    assert.equal(view?.state, 'awaited');
    assert.equal(view?.awaitedUntil, 6_000);
    assert.equal(registry.expireAwaited(2_000), 6_000);
    assert.deepEqual(gone, []);
    const changesBeforeExpiry = toolChanges;
    assert.equal(registry.expireAwaited(6_000), undefined);
    assert.deepEqual(gone, [id]);
    assert.deepEqual(registry.views(6_000), []);
    assert.deepEqual(registry.publishedTools(), []);
    assert.equal(toolChanges, changesBeforeExpiry + 1, 'agents are told when the tools finally go');
  });

  test('a reconnecting plugin ends the awaited state and counts a reconnect', () => {
    const registry = newRegistry();
    const first = join(registry, { role: 'editor', name: 'scene', tools: ['a'] });
    registry.disconnect(first.id, 0, 5_000);
    const second = join(registry, { role: 'editor', name: 'scene', tools: ['a'] });
    const views = registry.views(1);
    assert.equal(views.length, 1);
    assert.equal(views[0]?.connectionId, second.id);
    assert.equal(views[0]?.reconnects, 1);
    assert.equal(views[0]?.toolCount, 1);
  });

  test('two different plugins publishing one name raise a DuplicateTool diagnostic; the editor serves it', () => {
    const registry = newRegistry();
    const seen: string[] = [];
    registry.events.on('diagnostic', (d) => seen.push(d.code));
    const editor = join(registry, { role: 'editor', name: 'scene', tools: ['ping'] });
    join(registry, { role: 'runtime', name: 'other-app', tools: ['ping', 'pong'] });
    const [diagnostic] = registry.diagnostics();
    assert.equal(diagnostic?.tool, 'ping');
    assert.equal(diagnostic?.winner, editor.id);
    assert.deepEqual(seen, ['DuplicateTool']);
    assert.equal(registry.publishedTools().find((t) => t.tool.name === 'ping')?.record.connectionId, editor.id);
  });

  test('the same plugin built for editor and runtime shares its tools without a diagnostic', () => {
    const registry = newRegistry();
    join(registry, { role: 'editor', name: 'scene', tools: ['ping'] });
    join(registry, { role: 'runtime', name: 'scene', tools: ['ping'] });
    assert.deepEqual(registry.diagnostics(), []);
  });
});

describe('active order', () => {
  test('built once per change: the same list between changes, a fresh one in preference order after a connect, handshake or leave', () => {
    const registry = newRegistry();
    const runtime = join(registry, { role: 'runtime', tools: ['a'] });
    const editor = join(registry, { role: 'editor', tools: ['a'] });
    const first = registry.active();
    assert.deepEqual(first.map((r) => r.connectionId), [editor.id, runtime.id]);
    registry.setTools(editor.id, [tool('a'), tool('b')]);
    assert.equal(registry.active(), first, 'a catalogue change keeps the order, so the list is not rebuilt');

    registry.connect({ connectionId: 'late', query: new URLSearchParams('client_role=runtime'), headers: {}, connectedAt: 0 });
    assert.deepEqual(registry.active().map((r) => r.connectionId), [editor.id, runtime.id], 'not handshaken yet');
    registry.handshake('late', { requestId: 'r', apiVersion: '2.0.0', pluginVersion: '1.0.0', environment: 'test', mcpPluginVersion: '8.16.0' });
    assert.deepEqual(registry.active().map((r) => r.connectionId), [editor.id, 'late'], 'the newer runtime replaced the older');

    const beforeLeave = registry.active();
    registry.disconnect(editor.id, 0, 0);
    assert.notEqual(registry.active(), beforeLeave);
    assert.deepEqual(registry.active().map((r) => r.connectionId), ['late']);
    assert.deepEqual(first.map((r) => r.connectionId), [editor.id, runtime.id], 'a list handed out earlier is never changed under its holder');
  });
});
