import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { callContext, startBridge, toolNames, until } from './harness.js';

test('the scene example runs standalone as a runtime and exits cleanly on SIGTERM', async () => {
  const { endpoint, bridge, close } = await startBridge();
  const child = spawn(process.execPath, ['--import', 'tsx', 'plugins/examples/scene/main.ts', '--endpoint', endpoint, '--role', 'runtime'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await until(bridge, () => toolNames(bridge).includes('simulate-step'), 'the standalone plugin', 30_000);
    assert.deepEqual(bridge.pluginViews().map((v) => [v.role, v.name, v.mcpPluginVersion]), [['runtime', 'scene', '8.16.0']]);
    const progress: number[] = [];
    const outcome = await bridge.tools.callTool('simulate-step', { steps: 3 }, callContext({ progress: (p) => progress.push(p.progress) }));
    assert.deepEqual(outcome.result.structuredContent, { tick: 3, moved: 0 });
    await until(bridge, () => progress.length > 0, 'progress relayed');
    assert.deepEqual(progress, [3]);
  } finally {
    const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve([child.exitCode]);
    child.kill('SIGTERM');
    const [code] = await exited;
    await close();
    assert.equal(code, 0, stderr);
  }
  assert.match(stderr, /connected to .* as runtime/);
});
