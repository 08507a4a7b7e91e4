/**
 * Replies a real McpPlugin 8.0.0 plugin can send that must not cost it its connection
 * (test/fixtures/wire/dotnet-8.0.0-bad-payloads.json): each fails its own call with a structured
 * error, is logged once, and the plugin's other calls go on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ControlEvent, OperatorNotice } from '../../../../src-main/contracts/index.js';
import type { Logger } from '../../../../src-main/shared/log.js';
import { replayDotNetClient, loadTranscript, type DotNetReplay } from '../../../support/dotnet-replay.js';
import { eventually, startTestJunction, type TestJunction } from '../../../support/junction-harness.js';

const BAD = 'dotnet-8.0.0-bad-payloads.json';

interface Setup {
  junction: TestJunction;
  replay: DotNetReplay;
  agent: Client;
  warnings: string[];
  notices: OperatorNotice[];
}

async function withBadPlugin(settings: string[], oversizedBytes: number, run: (setup: Setup) => Promise<void>): Promise<void> {
  const warnings: string[] = [];
  const logger: Logger = { error() {}, info() {}, debug() {}, warn: (message) => warnings.push(message) };
  const junction = await startTestJunction(settings, logger);
  const replay = await replayDotNetClient(junction.baseUrl, loadTranscript(BAD), { oversizedBytes });
  const notices: OperatorNotice[] = [];
  const unsubscribe = junction.control.subscribe((event: ControlEvent) => {
    if (event.type === 'notice.raised') notices.push(event.notice);
  });
  try {
    await replay.runClientInvocations();
    const agent = await junction.connectAgent();
    await eventually(async () => ((await agent.listTools()).tools.some((t) => t.name === 'screenshot-no-mime') ? true : undefined), 10_000, 'the plugin tools');
    await run({ junction, replay, agent, warnings, notices });
    // Nothing else was disturbed: the connection is up and its other tools answer.
    const after = await agent.callTool({ name: 'fail-kind-conflict', arguments: {} });
    assert.equal((after.structuredContent as { error: { code: string } }).error.code, 'Conflict');
    assert.deepEqual(replay.problems, []);
    assert.equal(replay.isOpen(), true, 'the plugin kept its connection');
  } finally {
    unsubscribe();
    await replay.close();
    await junction.stop();
  }
}

function errorOf(result: Record<string, unknown>): { code: string; message: string; details?: Record<string, unknown> } {
  assert.equal(result['isError'], true, JSON.stringify(result).slice(0, 300));
  return (result['structuredContent'] as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

const count = (lines: string[], pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;

test('an answer over max-frame-bytes fails that call alone with PayloadTooLarge naming its size, the limit and the setting', async () => {
  await withBadPlugin(['max-frame-bytes=2097152'], 3_000_000, async ({ junction, agent, warnings, notices }) => {
    const error = errorOf(await agent.callTool({ name: 'screenshot-oversized', arguments: {} }));
    assert.equal(error.code, 'PayloadTooLarge');
    assert.match(error.message, /answer to 'screenshot-oversized' is 3000\d{3} bytes, over the hub's limit of 2097152 bytes; the setting max-frame-bytes raises it/);
    assert.equal(error.details?.['setting'], 'max-frame-bytes');
    assert.equal(error.details?.['limitBytes'], 2_097_152);

    const res = await fetch(`${junction.baseUrl}/api/tools/screenshot-oversized`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'PayloadTooLarge');
    assert.equal(count(warnings, /RunCallTool of 3000\d{3} bytes exceeds the hub's limit of 2097152 bytes \(max-frame-bytes\); that call failed/), 2, warnings.join('\n'));

    // The operator sees it: a notice naming the plugin, its console row and timeline, server-status.
    assert.equal(notices.length, 2);
    const [plugin] = junction.control.snapshotFrame().snapshot.plugins;
    assert.deepEqual(notices[0]?.subject, { kind: 'plugin', id: plugin?.connectionId, label: 'plugin SpaceShooter' });
    assert.match(notices[0]?.message ?? '', /exceeds the hub's limit of 2097152 bytes \(max-frame-bytes\)/);
    assert.match(plugin?.warnings?.join('\n') ?? '', /Message over the hub limit: RunCallTool of 3000\d{3} bytes/);
    const detail = await junction.control.pluginDetail({ connectionId: plugin!.connectionId });
    assert.ok(detail.timeline.some((entry) => entry.kind === 'notice' && /exceeds the hub's limit/.test(entry.detail)), JSON.stringify(detail.timeline));
    const status = JSON.stringify((await agent.callTool({ name: 'server-status', arguments: { detail: 'Full' } })).structuredContent);
    assert.match(status, /Message over the hub limit: RunCallTool of 3000\d{3} bytes exceeds the hub's limit of 2097152 bytes/);
  });
});

test("a 129 MB answer against the default limit (McpPlugin.Server's 128 MB) fails its call only", async () => {
  // Writing and reading 129 MB on a loaded machine takes seconds: the deadline is not what this checks.
  await withBadPlugin(['plugin-timeout=120000'], 129 * 1024 * 1024, async ({ agent, warnings }) => {
    const error = errorOf(await agent.callTool({ name: 'screenshot-oversized', arguments: {} }, undefined, { timeout: 120_000 }));
    assert.equal(error.code, 'PayloadTooLarge');
    assert.match(error.message, /over the hub's limit of 134217728 bytes/);
    assert.equal(count(warnings, /exceeds the hub's limit of 134217728 bytes/), 1, warnings.join('\n'));
  });
});

test('a truncated frame fails its call with a structured error, logged once', async () => {
  await withBadPlugin([], 0, async ({ agent, warnings }) => {
    const error = errorOf(await agent.callTool({ name: 'screenshot-truncated', arguments: {} }));
    assert.equal(error.code, 'InternalError');
    assert.match(error.message, /malformed/);
    assert.equal(count(warnings, /not valid JSON/), 1, warnings.join('\n'));
  });
});

test('an image block whose data is not base64, or that has no MIME type, fails its call with a structured error, logged once each', async () => {
  await withBadPlugin([], 0, async ({ agent, warnings }) => {
    const notBase64 = errorOf(await agent.callTool({ name: 'screenshot-not-base64', arguments: {} }));
    assert.equal(notBase64.code, 'InternalError');
    assert.match(notBase64.message, /content\[0\]: an image block's data is not base64/);
    const noMime = errorOf(await agent.callTool({ name: 'screenshot-no-mime', arguments: {} }));
    assert.equal(noMime.code, 'InternalError');
    assert.match(noMime.message, /content\[0\]: an image block needs a mimeType/);
    assert.equal(count(warnings, /not base64/), 1, warnings.join('\n'));
    assert.equal(count(warnings, /needs a mimeType/), 1, warnings.join('\n'));
  });
});

test('a call past plugin-timeout fails with ToolTimeout, and the 8.x client gets no CancelToolRequest (it has no handler and logs an error)', async () => {
  await withBadPlugin(['plugin-timeout=500'], 0, async ({ agent, replay }) => {
    const error = errorOf(await agent.callTool({ name: 'bake-never-answers', arguments: {} }));
    assert.equal(error.code, 'ToolTimeout');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(replay.received.filter((r) => r.target === 'CancelToolRequest'), []);
  });
});
