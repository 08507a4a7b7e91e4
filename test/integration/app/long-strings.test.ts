/**
 * Long strings (a screenshot's base64, a file's text) cross Junction as they came, whichever way their
 * JSON travels: Junction keeps them as pieces of the JSON text (shared/json-text.ts) and writes them
 * piece by piece into hub messages, HTTP answers and SSE events. Checked end to end with a real SDK
 * plugin and a real MCP client, for text that is ASCII, multi-byte, or must be escaped.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createPlugin, type McpPlugin } from '../../../plugins/sdk/index.js';
import { LEAF_CHARS } from '../../../src-main/shared/index.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const long = (seed: string) => seed.repeat(Math.ceil((2 * LEAF_CHARS) / seed.length));

/** Arguments with long strings of every kind, and short ones around them. */
const ARGS = {
  ascii: long('base64+/AZaz09'),
  accents: long('héllo wörld '),
  wide: long('日本語のテキスト'),
  emoji: long('🙂 pairs '),
  escaped: long('a "quoted" \\ line\n'),
  control: long('bell\u0007 del\u007f '),
  short: 'x',
  nested: { list: [long('QUJD'), 1, true, null], name: long('not a pair name ') },
};
const IMAGE = Buffer.from(long('\u00ff\u0000\u0080 image bytes ')).toString('base64');

describe('long strings cross Junction as they came', () => {
  let junction: TestJunction;
  let plugin: McpPlugin;
  let agent: Client;
  const received: unknown[] = [];

  before(async () => {
    junction = await startTestJunction();
    plugin = createPlugin({ name: 'long-strings', version: '1.0.0', role: 'editor', endpoint: `${junction.baseUrl}/hub/mcp-server` });
    plugin.tool({
      name: 'keep',
      description: 'Answers its arguments.',
      input: z.object({}).passthrough(),
      handler: (args) => {
        received.push(args);
        return args;
      },
    });
    plugin.tool({ name: 'shot', description: 'Answers an image.', input: z.object({}), handler: () => ({ content: [{ type: 'image', data: IMAGE, mimeType: 'image/png' }] }) });
    await plugin.connect();
    agent = await junction.connectAgent();
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'shot'), 10_000, 'the plugin tools');
  });
  after(async () => {
    await agent?.close();
    await plugin?.disconnect();
    await junction?.stop();
  });

  test('over /api, arguments reach the plugin and its answer reaches the caller byte for byte', async () => {
    const response = await fetch(`${junction.baseUrl}/api/tools/keep`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ARGS) });
    const text = await response.text();
    assert.equal(response.status, 200, text.slice(0, 300));
    assert.deepEqual(received.at(-1), ARGS);
    assert.deepEqual((JSON.parse(text) as { structuredContent: unknown }).structuredContent, ARGS);
    assert.equal(Number(response.headers.get('content-length')), Buffer.byteLength(text));
    const shot = await fetch(`${junction.baseUrl}/api/tools/shot`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const shotText = await shot.text();
    assert.equal(shotText, JSON.stringify({ content: [{ type: 'image', data: IMAGE, mimeType: 'image/png' }] }));
    assert.equal(Number(shot.headers.get('content-length')), Buffer.byteLength(shotText));
  });

  test('over /mcp, as a JSON answer and as an SSE stream (progress asked for), the same', async () => {
    for (const onprogress of [undefined, () => undefined]) {
      const result = await agent.callTool({ name: 'keep', arguments: ARGS }, undefined, onprogress ? { onprogress } : {});
      assert.deepEqual(received.at(-1), ARGS);
      assert.deepEqual(result.structuredContent, ARGS);
      const shot = await agent.callTool({ name: 'shot', arguments: {} }, undefined, onprogress ? { onprogress } : {});
      assert.deepEqual(shot.content, [{ type: 'image', data: IMAGE, mimeType: 'image/png' }]);
    }
  });

  test("the console's detail and the audit trail keep bounded previews of such a call", async () => {
    const calls = (await junction.control.snapshot()).calls.filter((call) => call.tool === 'keep');
    assert.ok(calls.length >= 3);
    for (const call of calls) assert.ok(call.requestBytes >= Buffer.byteLength(JSON.stringify(ARGS)) && call.status === 'ok');
    const detail = await junction.control.callDetail({ callId: calls.at(-1)!.callId });
    assert.equal(detail?.truncated, true);
    assert.ok(JSON.stringify(detail).length < 300 * 1024, 'a preview, not the megabytes');
  });
});
