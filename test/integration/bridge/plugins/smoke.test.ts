import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenePlugin } from '../../../../plugins/examples/scene/plugin.js';
import { callContext, startBridge, toolNames, until } from './harness.js';

test('smoke: an editor scene plugin publishes and answers a call', async () => {
  const bridge = await startBridge();
  const editor = await startScenePlugin({ endpoint: bridge.endpoint, role: 'editor' });
  try {
    await until(bridge.bridge, () => toolNames(bridge.bridge).length === 3, 'editor tools');
    assert.deepEqual(toolNames(bridge.bridge), ['add-object', 'list-objects', 'remove-object']);
    const out = await bridge.bridge.callTool('add-object', { name: 'Cube', kind: 'cube' }, callContext());
    assert.equal(out.failure, undefined, JSON.stringify(out.result));
    console.log(JSON.stringify(out.result));
  } finally {
    await editor.stop();
    await bridge.close();
  }
});
