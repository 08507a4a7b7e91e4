/**
 * Junction's streamable HTTP transport with the real SDK Client and raw requests: a call answers in
 * plain JSON when nothing streams, turns into SSE when it asked for progress or the tool talks to the
 * agent, and the agent hanging up or cancelling ends the call (on /api too).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { successOutcome, type ToolSource } from '../../../src-main/contracts/tool-source.js';
import { eventually } from '../../support/junction-harness.js';
import { startMcpStack } from '../../support/mcp-stack.js';

const ACCEPT = 'application/json, text/event-stream';

/** Tools that each make the transport choose differently; `started` and `aborted` record waiting calls by tag. */
function transportProbe() {
  const started: string[] = [];
  const aborted: string[] = [];
  const source: ToolSource = {
    id: 'probe',
    listTools: () => [
      { name: 'echo', inputSchema: { type: 'object' } },
      { name: 'progress', inputSchema: { type: 'object' } },
      { name: 'log-then-answer', inputSchema: { type: 'object' } },
      { name: 'wait-for-abort', inputSchema: { type: 'object', properties: { tag: { type: 'string' } } } },
    ],
    onToolsChanged: () => () => undefined,
    async callTool(name, args, ctx) {
      if (name === 'progress') {
        for (let i = 1; i <= 3; i++) ctx.progress?.({ progress: i, total: 3 });
        return successOutcome({ steps: 3 });
      }
      if (name === 'log-then-answer') {
        ctx.agentRequests?.log('info', 'halfway there', 'probe');
        return successOutcome({ logged: true });
      }
      if (name === 'wait-for-abort') {
        started.push(String(args['tag']));
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted.push(String(args['tag']));
        return successOutcome({ aborted: true });
      }
      return successOutcome({ echoed: args });
    },
  };
  return { source, started, aborted };
}

describe("Junction's streamable HTTP transport", () => {
  const probe = transportProbe();
  let stack: Awaited<ReturnType<typeof startMcpStack>>;
  /** Content type of every POST answer the SDK client read, in order. */
  const answered: string[] = [];
  let client: Client;

  before(async () => {
    stack = await startMcpStack([probe.source]);
    client = new Client({ name: 'transport-test', version: '1.0.0' });
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'POST') answered.push(response.headers.get('content-type') ?? '');
      return response;
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp`), { fetch: recordingFetch }));
  });
  after(async () => {
    await client.close();
    await stack.close();
  });

  const lastAnswer = () => answered[answered.length - 1];

  test('the SDK client initializes and calls over plain JSON when nothing streams', async () => {
    assert.equal(answered[0], 'application/json', 'initialize is answered as JSON');
    const result = await client.callTool({ name: 'echo', arguments: { text: 'héllo 🌍' } });
    assert.deepEqual(result.structuredContent, { echoed: { text: 'héllo 🌍' } });
    assert.equal(lastAnswer(), 'application/json');
  });

  test('a call with a progress token is answered over SSE, progress first', async () => {
    const seen: number[] = [];
    const result = await client.callTool({ name: 'progress', arguments: {} }, undefined, { onprogress: (p) => seen.push(p.progress) });
    assert.deepEqual(result.structuredContent, { steps: 3 });
    assert.deepEqual(seen, [1, 2, 3]);
    assert.equal(lastAnswer(), 'text/event-stream');
  });

  test('a notification about the call turns its answer into SSE even without a progress token', async () => {
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    const result = await client.callTool({ name: 'log-then-answer', arguments: {} });
    assert.deepEqual(result.structuredContent, { logged: true });
    assert.equal(lastAnswer(), 'text/event-stream');
    assert.deepEqual(logs, ['halfway there']);
  });

  test('concurrent calls on one session each get their own answer', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool({ name: 'echo', arguments: { i } })));
    assert.deepEqual(
      results.map((r) => r.structuredContent),
      Array.from({ length: 20 }, (_, i) => ({ echoed: { i } })),
    );
  });

  test('cancelling a call from the SDK client (notifications/cancelled) aborts the tool', async () => {
    const abort = new AbortController();
    const call = client.callTool({ name: 'wait-for-abort', arguments: { tag: 'cancelled' } }, undefined, { signal: abort.signal }).catch((error: unknown) => error);
    await eventually(() => probe.started.includes('cancelled'), 5000, 'the call to start');
    abort.abort();
    assert.ok((await call) instanceof Error);
    await eventually(() => probe.aborted.includes('cancelled'), 5000, 'the tool to see the cancellation');
  });

  /** A raw session at 2025-03-26 (batching allowed), as a client that negotiates it would open one. */
  const rawSession = async () => {
    const headers = { 'content-type': 'application/json', accept: ACCEPT };
    const init = await fetch(`${stack.base}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    await init.text();
    const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-03-26' };
    const initialized = await fetch(`${stack.base}/mcp`, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    assert.equal(initialized.status, 202);
    return session;
  };

  test('a legacy batch is answered with one JSON array in request order, notifications left out', async () => {
    const session = await rawSession();
    const body = [
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'echo', arguments: { n: 2 } } },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
    ];
    const response = await fetch(`${stack.base}/mcp`, { method: 'POST', headers: session, body: JSON.stringify(body) });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('mcp-session-id'), session['mcp-session-id']);
    const answers = (await response.json()) as Array<{ id: string; result: Record<string, unknown> }>;
    assert.deepEqual(
      answers.map((a) => a.id),
      ['b', 'a'],
    );
    assert.deepEqual(answers[0]?.result['structuredContent'], { echoed: { n: 2 } });
  });

  test('an agent that hangs up on its POST cancels the call it was waiting for', async () => {
    const session = await rawSession();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait-for-abort', arguments: { tag: 'hung-up' } } });
    const url = new URL(`${stack.base}/mcp`);
    const req = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: session, agent: false });
    req.on('error', () => undefined);
    req.end(body);
    await eventually(() => probe.started.includes('hung-up'), 5000, 'the call to start');
    req.destroy();
    await eventually(() => probe.aborted.includes('hung-up'), 5000, 'the tool to see the agent hang up');
  });

  test('a direct /api caller that hangs up cancels its call, on a kept-alive connection that already served calls', async () => {
    const url = new URL(stack.base);
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const open = (tool: string) => request({ host: url.hostname, port: url.port, path: `/api/tools/${tool}`, method: 'POST', headers: { 'content-type': 'application/json' }, agent: keepAlive });
    for (const n of [1, 2]) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = open('echo');
        req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)));
        req.on('error', reject);
        req.end(JSON.stringify({ n }));
      });
      assert.equal(status, 200, `call ${n} on the shared connection`);
    }
    const waiting = open('wait-for-abort');
    waiting.on('error', () => undefined);
    waiting.end(JSON.stringify({ tag: 'api-hung-up' }));
    await eventually(() => probe.started.includes('api-hung-up'), 5000, 'the call to start');
    assert.ok(!probe.aborted.includes('api-hung-up'), 'earlier calls on the connection do not cancel a later one');
    waiting.destroy();
    await eventually(() => probe.aborted.includes('api-hung-up'), 5000, 'the tool to see the caller hang up');
    keepAlive.destroy();
  });

  test('DELETE ends the session: its requests are then 404 and its GET stream ends', async () => {
    const session = await rawSession();
    const streamEnded = new Promise<number>((resolve, reject) => {
      const url = new URL(`${stack.base}/mcp`);
      const req = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': session['mcp-session-id'] }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    const before = stack.mcp.sessionCount();
    await new Promise((r) => setTimeout(r, 50));
    const deleted = await fetch(`${stack.base}/mcp`, { method: 'DELETE', headers: session });
    assert.equal(deleted.status, 200);
    assert.equal(await streamEnded, 200, 'the GET stream was open, then ended');
    assert.equal(stack.mcp.sessionCount(), before - 1);
    const after = await fetch(`${stack.base}/mcp`, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }) });
    assert.equal(after.status, 404);
    assert.equal(((await after.json()) as { error: { code: number } }).error.code, -32001);
  });
});

describe('the session table', () => {
  let stack: Awaited<ReturnType<typeof startMcpStack>>;
  before(async () => {
    stack = await startMcpStack([transportProbe().source], { maxSessions: 2, idleTimeoutMs: 300 });
  });
  after(() => stack.close());

  const open = async () => {
    const init = await fetch(`${stack.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    await init.text();
    return init.headers.get('mcp-session-id') ?? '';
  };
  const ping = (session: string) =>
    fetch(`${stack.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });

  test('past the bound, a new session closes the least recently seen one and its server', async () => {
    const first = await open();
    const second = await open();
    assert.equal((await ping(second)).status, 200);
    const third = await open();
    assert.equal(stack.mcp.sessionCount(), 2);
    assert.equal(stack.factory.liveCount(), 2, "the evicted session's server closed with it");
    assert.equal((await ping(first)).status, 404);
    assert.equal((await ping(second)).status, 200);
    assert.equal((await ping(third)).status, 200);
  });

  test('a refused initialize leaves no server behind', async () => {
    const live = stack.factory.liveCount();
    const refused = await fetch(`${stack.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: ACCEPT },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    assert.equal(refused.status, 415);
    assert.equal(stack.factory.liveCount(), live);
  });

  test('idle sessions are closed', async () => {
    const session = await open();
    await eventually(() => stack.mcp.sessionCount() === 0, 5000, 'the idle sweep');
    assert.equal(stack.factory.liveCount(), 0);
    assert.equal((await ping(session)).status, 404);
  });
});
