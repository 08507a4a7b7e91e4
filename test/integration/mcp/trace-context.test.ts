/**
 * The agent's W3C trace context reaches the plugin tool that serves the call, on every route an agent
 * has: a real SDK client on /mcp and /p/{pin}/mcp (2025-11-25), a stateless 2026-07-28 request, the
 * stdio relay, and the `traceparent` header on /api; the console's call row names it. A real Junction,
 * a real TypeScript SDK plugin over SignalR.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createPlugin, projectPathHash, type McpPlugin } from '../../../plugins/sdk/index.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { rawRelay } from '../../support/raw-relay.js';
import type { HistoryPage } from '../../../src-main/contracts/index.js';

const TOOL = 'trace-echo';
const PROJECT = { name: 'Traced', path: '/work/games/traced', engine: 'Test engine' };
const MODERN = '2026-07-28';

let seq = 0;
/** A fresh valid traceparent per call, so no answer can come from an earlier one. */
function traceparent(): string {
  seq += 1;
  return `00-${seq.toString(16).padStart(32, 'a')}-${seq.toString(16).padStart(16, 'b')}-01`;
}

const modernMeta = (extra: Record<string, unknown>) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'trace-agent', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});

function seen(result: unknown): unknown {
  return (result as { structuredContent?: { traceparent?: unknown } }).structuredContent?.traceparent;
}

describe('trace context from the agent to the plugin', () => {
  let junction: TestJunction;
  let plugin: McpPlugin;
  let pin: string;

  before(async () => {
    junction = await startTestJunction(['project-routing=multi']);
    plugin = createPlugin({ name: 'tracer', version: '1.0.0', role: 'editor', endpoint: `${junction.baseUrl}/hub/mcp-server`, project: PROJECT });
    plugin.tool({ name: TOOL, description: 'Answers the trace context its call carried.', input: z.object({}), handler: (_args, ctx) => ({ traceparent: ctx.traceparent ?? null }) });
    await plugin.connect();
    pin = projectPathHash(PROJECT.path).slice(0, 8);
    await eventually(() => junction.control.snapshotFrame().snapshot.bridge.projects?.some((p) => p.pin === pin), 10_000, 'the project');
  });
  after(async () => {
    await plugin.disconnect();
    await junction.stop();
  });

  const sdkClient = async (path: string) => {
    const client = new Client({ name: 'trace-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}${path}`)));
    return client;
  };
  const rowOf = (traced: string) => junction.control.snapshotFrame().snapshot.calls.find((c) => c.traceparent === traced);

  test('2025-11-25 sessions on /mcp and /p/{pin}/mcp: _meta.traceparent reaches ToolContext and the call row', async () => {
    for (const path of ['/mcp', `/p/${pin}/mcp`]) {
      const client = await sdkClient(path);
      try {
        const traced = traceparent();
        const result = await client.callTool({ name: TOOL, arguments: {}, _meta: { traceparent: traced } });
        assert.equal(seen(result), traced, path);
        assert.equal(rowOf(traced)?.tool, TOOL, `${path}: the console's row names the trace`);
        assert.equal(seen(await client.callTool({ name: TOOL, arguments: {} })), null, `${path}: no trace context, none invented`);
      } finally {
        await client.close();
      }
    }
  });

  test('a stateless 2026-07-28 request carries it in _meta beside the protocol fields', async () => {
    const traced = traceparent();
    const response = await fetch(`${junction.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': TOOL },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: TOOL, arguments: {}, _meta: modernMeta({ traceparent: traced }) } }),
    });
    assert.equal(response.status, 200);
    const text = await response.text();
    const json = response.headers.get('content-type')?.includes('text/event-stream') ? text.trim().split('\n').filter((l) => l.startsWith('data: ')).at(-1)!.slice(6) : text;
    assert.equal(seen((JSON.parse(json) as { result: unknown }).result), traced);
  });

  test('the stdio relay passes it through', async () => {
    const relay = rawRelay(junction.port);
    try {
      const traced = traceparent();
      relay.write(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: TOOL, arguments: {}, _meta: modernMeta({ traceparent: traced }) } }));
      const answer = await relay.answer((a) => a['id'] === 7);
      assert.equal(seen(answer['result']), traced);
    } finally {
      await relay.end();
    }
  });

  test('/api and /p/{pin}/api read the W3C traceparent header; an invalid or repeated one is dropped, not refused', async () => {
    const post = (path: string, headers: Record<string, string> | Array<[string, string]>) =>
      fetch(`${junction.baseUrl}${path}/api/tools/${TOOL}`, { method: 'POST', headers: new Headers([['content-type', 'application/json'], ...(Array.isArray(headers) ? headers : Object.entries(headers))]), body: '{}' });
    for (const path of ['', `/p/${pin}`]) {
      const traced = traceparent();
      const ok = await post(path, { traceparent: traced });
      assert.equal(ok.status, 200);
      assert.equal(seen(await ok.json()), traced, `${path}/api`);
    }
    for (const headers of [{ traceparent: `00-${'0'.repeat(32)}-${'b'.repeat(16)}-01` }, { traceparent: 'not a trace' }, [['traceparent', traceparent()], ['traceparent', traceparent()]] as Array<[string, string]>]) {
      const res = await post('', headers);
      assert.equal(res.status, 200, JSON.stringify(headers));
      assert.equal(seen(await res.json()), null, JSON.stringify(headers));
    }
  });

  test('the audit trail keeps the trace context of the call that carried it', async () => {
    const traced = traceparent();
    const res = await fetch(`${junction.baseUrl}/api/tools/${TOOL}`, { method: 'POST', headers: { 'content-type': 'application/json', traceparent: traced }, body: '{}' });
    assert.equal(res.status, 200);
    junction.audit!.store.flush();
    const page = (await junction.control.execute('history', { tool: TOOL })) as { ok: true; value: HistoryPage };
    assert.ok(page.value.calls.some((c) => c.traceparent === traced), JSON.stringify(page.value.calls.map((c) => c.traceparent)));
  });

  test('an invalid _meta.traceparent is dropped on MCP too: the call runs, the plugin and the row see none', async () => {
    const client = await sdkClient('/mcp');
    try {
      const bad = `00-${'A'.repeat(32)}-${'b'.repeat(16)}-01`;
      const result = await client.callTool({ name: TOOL, arguments: {}, _meta: { traceparent: bad } });
      assert.equal(result.isError, undefined);
      assert.equal(seen(result), null);
      assert.equal(rowOf(bad), undefined);
    } finally {
      await client.close();
    }
  });
});
