import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { routeTool } from '../../../../src-main/bridge/registry/index.js';
import { join, newRegistry } from './fixtures.js';

describe('routing', () => {
  test('a tool both publish goes to the editor; a tool only the runtime publishes goes to the runtime', () => {
    const registry = newRegistry();
    const editor = join(registry, { role: 'editor', tools: ['shared'] });
    const runtime = join(registry, { role: 'runtime', tools: ['shared', 'simulate'] });
    assert.deepEqual(routeTool('shared', registry.active(), registry.awaited(0), 0), { kind: 'target', connectionId: editor.id, role: 'editor' });
    assert.deepEqual(routeTool('simulate', registry.active(), registry.awaited(0), 0), { kind: 'target', connectionId: runtime.id, role: 'runtime' });
    assert.deepEqual(routeTool('missing', registry.active(), registry.awaited(0), 0), { kind: 'notFound' });
  });

  test('the runtime serves shared tools when no editor is connected or awaited', () => {
    const registry = newRegistry();
    const runtime = join(registry, { role: 'runtime', tools: ['shared'] });
    assert.deepEqual(routeTool('shared', registry.active(), registry.awaited(0), 0), { kind: 'target', connectionId: runtime.id, role: 'runtime' });
  });

  test('while the editor that owns a tool is awaited, its calls wait; runtime-only tools do not', () => {
    const registry = newRegistry();
    const editor = join(registry, { role: 'editor', tools: ['shared'] });
    const runtime = join(registry, { role: 'runtime', tools: ['shared', 'simulate'] });
    registry.disconnect(editor.id, 100, 1_000);
    assert.deepEqual(routeTool('shared', registry.active(), registry.awaited(200), 200), { kind: 'wait', until: 1_100, role: 'editor' });
    assert.deepEqual(routeTool('simulate', registry.active(), registry.awaited(200), 200), { kind: 'target', connectionId: runtime.id, role: 'runtime' });
    // Once the wait is over the runtime takes the shared tool.
    assert.deepEqual(routeTool('shared', registry.active(), registry.awaited(1_100), 1_100), { kind: 'target', connectionId: runtime.id, role: 'runtime' });
  });

  test('a tool only an awaited plugin published waits for it, and is unknown once the wait ends', () => {
    const registry = newRegistry();
    const editor = join(registry, { role: 'editor', tools: ['only-editor'] });
    registry.disconnect(editor.id, 0, 500);
    assert.deepEqual(routeTool('only-editor', registry.active(), registry.awaited(10), 10), { kind: 'wait', until: 500, role: 'editor' });
    assert.deepEqual(routeTool('only-editor', registry.active(), registry.awaited(500), 500), { kind: 'notFound' });
  });
});
