/**
 * What the real .NET McpPlugin 8.0.0 client sent Junction (test/fixtures/wire/dotnet-8.0.0-observed.json,
 * captured from McpPlugin at aefc899 built for net10.0), replayed frame by frame by a raw `ws` client;
 * agents are the real MCP SDK Client over /mcp and plain HTTP on /api. Junction runs with its
 * defaults, which take the captured frames (up to 12.8 MB) as McpPlugin.Server does (128 MB).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { replayDotNetClient, loadTranscript, type DotNetReplay } from '../../../support/dotnet-replay.js';
import { eventually, startTestJunction, type TestJunction } from '../../../support/junction-harness.js';

const OBSERVED = 'dotnet-8.0.0-observed.json';

async function observedSession(junction: TestJunction): Promise<DotNetReplay> {
  const replay = await replayDotNetClient(junction.baseUrl, loadTranscript(OBSERVED));
  await replay.runClientInvocations();
  return replay;
}

async function listedTools(agent: Client, name: string) {
  return eventually(async () => {
    const { tools } = await agent.listTools();
    return tools.some((t) => t.name === name) ? tools : undefined;
  }, 10_000, `tool ${name}`);
}

async function api(junction: TestJunction, tool: string) {
  const res = await fetch(`${junction.baseUrl}/api/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test('the official MCP SDK lists the tools of the observed client, whose value-returning tools publish an output schema with $defs', async () => {
  const junction = await startTestJunction();
  const replay = await observedSession(junction);
  try {
    const agent = await junction.connectAgent();
    // listTools compiles every published output schema; a $ref that no longer resolves throws here.
    const tools = await listedTools(agent, 'scene-dump');
    const dump = tools.find((t) => t.name === 'scene-dump');
    assert.ok(dump?.outputSchema, 'the output schema is published');
    const result = await agent.callTool({ name: 'scene-dump', arguments: { kilobytes: 1024 } });
    assert.equal(result.isError, undefined, JSON.stringify(result).slice(0, 300));
    const objects = (result.structuredContent as { result: { Objects: Array<{ Path: string }> } }).result.Objects;
    assert.equal(objects[0]?.Path.length, 1_048_576, 'the value result arrives whole');
    assert.deepEqual(replay.problems, []);
  } finally {
    await replay.close();
    await junction.stop();
  }
});

test('a 5.9 MB screenshot, a 4 MB binary resource, errors of every kind and a Processing tool, as the real client answers them', async () => {
  const junction = await startTestJunction();
  const replay = await observedSession(junction);
  try {
    const agent = await junction.connectAgent();
    await listedTools(agent, 'screenshot-game-view');

    const shot = await agent.callTool({ name: 'screenshot-game-view', arguments: {} });
    assert.equal(shot.isError, undefined);
    const [caption, image] = shot.content as Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
    assert.equal(caption?.text, 'Game view captured at 1024x1024.');
    assert.equal(image?.type, 'image');
    assert.equal(image?.mimeType, 'image/png');
    assert.equal(image?.data?.length, 5_899_840, 'the image block passes through whole');
    assert.ok(image?.data?.startsWith('iVBORw0KGgo'), 'and unchanged');

    const read = await agent.readResource({ uri: 'unity://asset/terrain' });
    assert.equal(read.contents.length, 1);
    const blob = read.contents[0] as { blob?: string; mimeType?: string };
    assert.equal(blob.mimeType, 'application/octet-stream');
    assert.equal(blob.blob?.length, 4_194_304);

    // A tool that returns nothing: McpPlugin sends a text block without text; McpPlugin.Server answers empty text.
    const logged = await agent.callTool({ name: 'console-log', arguments: { message: 'hello' } });
    assert.deepEqual(logged.content, [{ type: 'text', text: '', _meta: { mimeType: 'text/plain' } }]);

    const processing = await agent.callTool({ name: 'run-tests', arguments: { seconds: 30 } });
    assert.deepEqual(processing.content, [{ type: 'text', text: 'All 412 tests passed in 30 s.', _meta: { mimeType: 'text/plain' } }]);

    // McpPlugin.Server's status for each ErrorKind, its explicit HttpStatusCode, the message as written.
    const expected: Array<[string, number, string]> = [
      ['fail-kind-none', 500, 'Failed as None.'],
      ['fail-kind-badrequest', 400, 'Failed as BadRequest.'],
      ['fail-kind-notfound', 404, 'Failed as NotFound.'],
      ['fail-kind-conflict', 409, 'Failed as Conflict.'],
      ['fail-kind-timeout', 504, 'Failed as Timeout.'],
      ['fail-kind-unavailable', 503, 'Failed as Unavailable.'],
      ['fail-kind-internal', 500, 'Failed as Internal.'],
      ['fail-451', 451, 'Unavailable for legal reasons.'],
      ['fail-throw', 500, "Tool execution failed for 'Throws an exception.': The scene is locked."],
    ];
    for (const [tool, status, message] of expected) {
      const res = await api(junction, tool);
      assert.equal(res.status, status, `${tool}: ${JSON.stringify(res.body)}`);
      assert.equal((res.body['error'] as { message: string }).message, message, tool);
    }
    assert.deepEqual(replay.problems, []);
    assert.equal(replay.isOpen(), true, 'the plugin is still connected after every large frame');
  } finally {
    await replay.close();
    await junction.stop();
  }
});

test("a Processing call outlives plugin-timeout, as McpPlugin.Server awaits NotifyToolRequestCompleted for up to 5 minutes", async () => {
  const junction = await startTestJunction(['plugin-timeout=500']);
  const replay = await replayDotNetClient(junction.baseUrl, loadTranscript(OBSERVED), { processingDelayMs: 2000 });
  try {
    await replay.runClientInvocations();
    const agent = await junction.connectAgent();
    await listedTools(agent, 'run-tests');
    const result = await agent.callTool({ name: 'run-tests', arguments: { seconds: 30 } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(result.content, [{ type: 'text', text: 'All 412 tests passed in 30 s.', _meta: { mimeType: 'text/plain' } }]);
    assert.deepEqual(replay.problems, []);
  } finally {
    await replay.close();
    await junction.stop();
  }
});
