/**
 * tools/call answers on the wire, byte for byte, as the SDK Server's own tools/call wrapper and a
 * JSON.stringify of its parsed copy would make them, whether a result goes out as the dispatcher's JSON
 * or through the schema: a real SDK client, with the raw bodies it read captured from its fetch.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorOutcome, successOutcome, type ToolOutcome, type ToolSource } from '../../../src-main/contracts/tool-source.js';
import { startMcpStack } from '../../support/mcp-stack.js';

const RESULTS: Record<string, () => ToolOutcome> = {
  success: () => successOutcome({ text: 'x'.repeat(64), quote: '"\\', line: '\u2028', emoji: '\ud83d\ude00' }),
  text: () => ({ result: { content: [{ type: 'text', text: 'plain' }] } }),
  failure: () => errorOutcome({ code: 'ToolFailed', message: 'the scene has no camera' }),
  reordered: () => ({ result: { structuredContent: { b: 1, a: 2 }, content: [] } as CallToolResult }),
  stripped: () => ({ result: { content: [{ type: 'text', text: 'a', extra: 1 } as CallToolResult['content'][number]], own: 'kept' } }),
  defaulted: () => ({ result: { structuredContent: { only: true } } as unknown as CallToolResult }),
  meta: () => ({ result: { content: [], _meta: { note: 'n' } } }),
  image: () => ({ result: { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] } }),
  audio: () => ({ result: { content: [{ type: 'text', text: 'clip' }, { type: 'audio', data: Buffer.alloc(4096, 7).toString('base64'), mimeType: 'audio/wav' }] } }),
  notBase64: () => ({ result: { content: [{ type: 'image', data: 'a!b=', mimeType: 'image/png' }] } }),
  unpadded: () => ({ result: { content: [{ type: 'image', data: 'aGk', mimeType: 'image/png' }] } }),
  invalid: () => ({ result: { content: 'not a list' } as unknown as CallToolResult }),
};

const source: ToolSource = {
  id: 'shapes',
  listTools: () => Object.keys(RESULTS).map((name) => ({ name, inputSchema: { type: 'object' } })),
  onToolsChanged: () => () => undefined,
  callTool: async (name) => RESULTS[name]!(),
};

/** What the SDK's wrapper answered: its parsed copy of the result, or its InvalidParams error, serialised by the transport. */
function sdkAnswer(id: unknown, result: unknown): string {
  const parsed = safeParse(CallToolResultSchema, result);
  if (parsed.success) return JSON.stringify({ result: parsed.data, jsonrpc: '2.0', id });
  const message = parsed.error instanceof Error ? parsed.error.message : String(parsed.error);
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: `MCP error -32602: Invalid tools/call result: ${message}` } });
}

let stack: Awaited<ReturnType<typeof startMcpStack>>;
let client: Client;
/** The raw body of every tools/call POST answer, by request id. */
const bodies = new Map<unknown, string>();

before(async () => {
  stack = await startMcpStack([source]);
  client = new Client({ name: 'bytes-agent', version: '1.0.0' });
  const capturing: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string; id?: unknown }) : undefined;
    if (sent?.method === 'tools/call') bodies.set(sent.id, await response.clone().text());
    return response;
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp`), { fetch: capturing }));
});

after(async () => {
  await client.close();
  await stack.close();
});

test('every result shape answers with the bytes the SDK path made', async () => {
  for (const name of Object.keys(RESULTS)) {
    const before = new Set(bodies.keys());
    await client.callTool({ name, arguments: {} }).catch(() => undefined);
    const id = [...bodies.keys()].find((key) => !before.has(key));
    assert.notEqual(id, undefined, name);
    assert.equal(bodies.get(id), sdkAnswer(id, RESULTS[name]!().result), name);
  }
});
