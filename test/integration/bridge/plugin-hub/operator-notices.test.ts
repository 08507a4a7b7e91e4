/**
 * The operator-notification hub method (MCP extension 1, feature `operatorNotices`) against a real
 * Junction: the SDK's plugin.notifyOperator raises the console event `notice.raised` naming the
 * plugin; a hostile plugin speaking the hub directly cannot flood the console (per-connection rate),
 * cannot send oversized or control-character text, and a connection that did not declare the feature
 * (every McpPlugin 8.x client) can raise nothing and is never offered it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createPlugin, OperatorNoticeError, type McpPlugin } from '../../../../plugins/sdk/index.js';
import { NOTICE_MESSAGE_MAX, NOTICE_TITLE_MAX } from '../../../../plugins/sdk/wire/index.js';
import type { ControlEvent, OperatorNotice } from '../../../../src-main/contracts/console.js';
import { NOTICE_BURST, NOTICES_PER_SECOND } from '../../../../src-main/bridge/plugin-hub/operator-notices.js';
import { DotnetLikePlugin, field } from '../../../support/dotnet-like-plugin.js';
import { eventually, startTestJunction, type TestJunction } from '../../../support/junction-harness.js';

const errorCode = (reply: unknown) => field(reply, 'code');

/** A plugin that speaks the hub itself (no SDK), declaring the extension's features as it likes. */
async function rawPlugin(hubUrl: string, name: string, features: string[] | undefined): Promise<DotnetLikePlugin> {
  const plugin = await DotnetLikePlugin.connect(hubUrl, { instanceId: name, projectName: name });
  plugin.handle('RunListTool', (r) => ({ RequestID: field(r, 'requestId'), Status: 'Success', Value: [] }));
  const handshake = await plugin.invoke('PerformVersionHandshake', {
    requestId: 'h',
    apiVersion: '2.0.0',
    pluginVersion: '1.0.0',
    environment: name,
    ...(features ? { mcpPluginVersion: '8.16.0', extensions: { version: 1, features } } : {}),
  });
  assert.equal(field(handshake, 'compatible'), true);
  return plugin;
}

describe('operator notices from plugins (NotifyOperator)', () => {
  let junction: TestJunction;
  let hubUrl: string;
  let plugin: McpPlugin;
  const notices: OperatorNotice[] = [];
  let unsubscribe: () => void;

  before(async () => {
    // Each plugin its own project, so none replaces another as the editor.
    junction = await startTestJunction(['project-routing=multi']);
    hubUrl = `${junction.baseUrl}/hub/mcp-server`;
    unsubscribe = junction.control.subscribe((event: ControlEvent) => {
      if (event.type === 'notice.raised') notices.push(event.notice);
    });
    plugin = createPlugin({ name: 'notifier', version: '1.0.0', role: 'editor', endpoint: hubUrl });
    plugin.tool({ name: 'noop', description: 'Does nothing.', input: z.object({}), handler: () => 'ok' });
    await plugin.connect();
  });
  after(async () => {
    unsubscribe();
    await plugin.disconnect();
    await junction.stop();
  });

  test('plugin.notifyOperator raises notice.raised whose subject is the plugin', async () => {
    notices.length = 0;
    await plugin.notifyOperator({ level: 'warning', title: 'Build failed', message: '3 errors in Player.cs\nsee the editor log' });
    const [notice] = await eventually(() => (notices.length ? notices : undefined), 5_000, 'the notice');
    const connectionId = plugin.currentConnectionId;
    assert.ok(connectionId);
    assert.equal(notice?.level, 'warning');
    assert.equal(notice?.title, 'Build failed');
    assert.equal(notice?.message, '3 errors in Player.cs\nsee the editor log');
    assert.deepEqual(notice?.subject, { kind: 'plugin', id: connectionId, label: 'plugin notifier' });
    assert.equal(typeof notice?.id, 'string');
    assert.ok(Math.abs((notice?.at ?? 0) - Date.now()) < 60_000);
    const view = junction.bridge.pluginViews().find((p) => p.connectionId === connectionId);
    assert.equal(view?.name, 'notifier', 'the subject names the connected plugin');
  });

  test('the SDK refuses an oversized or control-character notice before sending it', async () => {
    notices.length = 0;
    const refused = (e: unknown) => e instanceof OperatorNoticeError && e.code === 'InvalidRequest';
    await assert.rejects(plugin.notifyOperator({ level: 'info', title: 't'.repeat(NOTICE_TITLE_MAX + 1), message: '' }), refused);
    await assert.rejects(plugin.notifyOperator({ level: 'info', title: 'ok', message: 'm'.repeat(NOTICE_MESSAGE_MAX + 1) }), refused);
    await assert.rejects(plugin.notifyOperator({ level: 'info', title: 'bell\u0007', message: '' }), refused);
    await assert.rejects(plugin.notifyOperator({ level: 'fatal' as 'error', title: 'ok', message: '' }), refused);
    assert.equal(notices.length, 0);
  });

  test('a hostile plugin cannot flood the console: past the burst, notices are refused with TooManyRequests', async () => {
    const hostile = await rawPlugin(hubUrl, 'flooder', ['operatorNotices']);
    try {
      notices.length = 0;
      const started = Date.now();
      const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => hostile.invoke('NotifyOperator', { RequestID: `n${i}`, Level: 'error', Title: `spam ${i}`, Message: 'x' })));
      const elapsedSeconds = (Date.now() - started) / 1000;
      const accepted = replies.filter((r) => field(r, 'status') === 'Success').length;
      const refused = replies.filter((r) => errorCode(r) === 'TooManyRequests').length;
      assert.equal(accepted + refused, 60, JSON.stringify(replies.slice(0, 3)));
      assert.ok(accepted >= NOTICE_BURST, `the burst goes through (${accepted})`);
      assert.ok(accepted <= NOTICE_BURST + Math.ceil(elapsedSeconds * NOTICES_PER_SECOND) + 1, `${accepted} accepted in ${elapsedSeconds} s`);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(notices.length, accepted, 'only accepted notices reach the console');
      assert.ok(notices.every((n) => n.subject.kind === 'plugin' && n.subject.label === 'plugin flooder'));
      // Another connection has its own budget.
      await plugin.notifyOperator({ level: 'info', title: 'still heard', message: '' });
    } finally {
      await hostile.close();
    }
  });

  test('oversized or malformed payloads from a raw client raise nothing and keep the connection', async () => {
    const hostile = await rawPlugin(hubUrl, 'oversized', ['operatorNotices']);
    try {
      notices.length = 0;
      await assert.rejects(hostile.invoke('NotifyOperator', { RequestID: 'a', Level: 'info', Title: 'x'.repeat(50_000), Message: '' }), /Invalid NotifyOperator payload: title/);
      await assert.rejects(hostile.invoke('NotifyOperator', { RequestID: 'b', Level: 'info', Title: 'ok', Message: 'y'.repeat(NOTICE_MESSAGE_MAX + 1) }), /message/);
      await assert.rejects(hostile.invoke('NotifyOperator', { RequestID: 'c', Level: 'info', Title: 'ok', Message: 'escape \u001b[2J' }), /control character/);
      await assert.rejects(hostile.invoke('NotifyOperator', { RequestID: 'd', Level: 'panic', Title: 'ok', Message: '' }), /level/);
      const ok = await hostile.invoke('NotifyOperator', { RequestID: 'e', Level: 'info', Title: 'after the refusals', Message: '' });
      assert.equal(field(ok, 'status'), 'Success', 'the connection is still served');
      await eventually(() => notices.length === 1, 5_000, 'the one valid notice');
    } finally {
      await hostile.close();
    }
  });

  test('a connection that did not declare the feature (an McpPlugin 8.x client) is never offered it and raises nothing', async () => {
    const legacy = await DotnetLikePlugin.connect(hubUrl, { instanceId: 'unity', projectName: 'Legacy' });
    try {
      const handshake = await legacy.invoke('PerformVersionHandshake', { requestId: 'h', apiVersion: '2.0.0', pluginVersion: '0.89.0', environment: '2022.3.10f1' });
      assert.equal(field(handshake, 'extensions'), undefined, 'the 8.x handshake answer is unchanged');
      notices.length = 0;
      const reply = await legacy.invoke('NotifyOperator', { RequestID: 'x', Level: 'info', Title: 'hello', Message: '' });
      assert.equal(errorCode(reply), 'CapabilityUnavailable');
      const declaredOthers = await rawPlugin(hubUrl, 'elicits-only', ['elicitation']);
      assert.equal(errorCode(await declaredOthers.invoke('NotifyOperator', { RequestID: 'y', Level: 'info', Title: 'hello', Message: '' })), 'CapabilityUnavailable');
      await declaredOthers.close();
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(notices.length, 0);
    } finally {
      await legacy.close();
    }
  });
});
