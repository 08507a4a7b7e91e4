import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HubConnectionBuilder, HubConnectionState, LogLevel } from '@microsoft/signalr';
import { startScenePlugin } from '../../../../plugins/examples/scene/plugin.js';
import type { ToolOutcome } from '../../../../src-main/contracts/tool-source.js';
import { callContext, startBridge, toolNames, until } from './harness.js';

/** The bridge writes as McpPlugin.Server does: PascalCase DTOs (the .NET client reads them case-insensitively). */
interface RawRequest {
  RequestID: string;
  Arguments?: Record<string, unknown>;
}

function errorOf(outcome: ToolOutcome): { code: string; message: string } {
  return (outcome.result.structuredContent as { error: { code: string; message: string } }).error;
}

/** An 8.0-era plugin: no role, no mcpPluginVersion, enums written as names. */
function legacyClient(endpoint: string) {
  const connection = new HubConnectionBuilder().withUrl(endpoint).configureLogging(LogLevel.None).build();
  const ok = (requestId: string, value: unknown) => ({ requestId, status: 'Success', errorKind: 'None', value });
  connection.on('RunListTool', (req: RawRequest) =>
    ok(req.RequestID, [{ name: 'legacy-echo', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }]),
  );
  connection.on('RunListPrompts', (req: RawRequest) => ok(req.RequestID, []));
  connection.on('RunListResources', (req: RawRequest) => ok(req.RequestID, []));
  connection.on('RunResourceTemplates', (req: RawRequest) => ok(req.RequestID, []));
  connection.on('RunCallTool', (req: RawRequest) => {
    if (req.Arguments?.['fail']) {
      const failure = { requestId: req.RequestID, status: 'Error', errorKind: 'Internal', content: [{ type: 'text', text: 'Legacy failure text' }] };
      return { requestId: req.RequestID, status: 'Error', errorKind: 'Internal', message: 'Legacy failure text', value: failure };
    }
    return ok(req.RequestID, { requestId: req.RequestID, status: 'Success', content: [{ type: 'text', text: JSON.stringify(req.Arguments) }] });
  });
  return connection;
}

test('an 8.0-era raw SignalR client still works: unvalidated, errors as sent, newest-wins replacement', async () => {
  const { endpoint, bridge, close } = await startBridge();
  const legacy = legacyClient(endpoint);
  try {
    await legacy.start();
    const handshake = await legacy.invoke('PerformVersionHandshake', { requestId: '1', apiVersion: '2.0.0', pluginVersion: '8.0.0', environment: 'Unity 2022.3 (editor)' });
    assert.equal(handshake.compatible, true);
    await legacy.invoke('NotifyAboutUpdatedTools', { requestId: '2' });
    await until(bridge, () => toolNames(bridge).includes('legacy-echo'), 'legacy tools');
    const [view] = bridge.pluginViews();
    assert.equal(view?.role, 'editor');
    assert.equal(view?.mcpPluginVersion, undefined);

    // No server-side validation: the wrongly typed argument reaches the plugin.
    const echoed = await bridge.tools.callTool('legacy-echo', { n: 'not a number' }, callContext());
    assert.equal(echoed.error?.kind, undefined, JSON.stringify(echoed.result));
    assert.deepEqual(echoed.result.content, [{ type: 'text', text: '{"n":"not a number"}' }]);

    const failed = await bridge.tools.callTool('legacy-echo', { n: 1, fail: true }, callContext());
    assert.equal(failed.error?.kind, 'internal');
    assert.equal(errorOf(failed).message, 'Legacy failure text');

    // A role applies only between two 8.14+ plugins: a new runtime replaces the old editor.
    const closed = new Promise<void>((resolve) => legacy.onclose(() => resolve()));
    const runtime = await startScenePlugin({ endpoint, role: 'runtime' });
    try {
      await closed;
      assert.equal(legacy.state, HubConnectionState.Disconnected);
      await until(bridge, () => toolNames(bridge).includes('simulate-step') && !toolNames(bridge).includes('legacy-echo'), 'runtime took over');
      assert.deepEqual(bridge.pluginViews().map((v) => v.role), ['runtime']);
    } finally {
      await runtime.stop();
    }
  } finally {
    await legacy.stop();
    await close();
  }
});
