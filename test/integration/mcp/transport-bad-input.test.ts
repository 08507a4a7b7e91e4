/**
 * What /mcp refuses, as a table: each bad request's HTTP status and JSON-RPC error code (or the access
 * gate's structured code). Recorded against the SDK's streamable HTTP transport before Junction's own
 * replaced it, so the switch keeps every refusal as it was.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const MAX_BODY_BYTES = 65_536;
const ACCEPT_BOTH = 'application/json, text/event-stream';
const JSON_HEADERS = { 'content-type': 'application/json', accept: ACCEPT_BOTH };

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** `error.code` of the body: a JSON-RPC number, or the access gate's string code. */
  code: number | string | undefined;
  dataCode: string | undefined;
  text: string;
}

function exchange(port: number, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method, headers: { host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let error: { code?: number | string; data?: { code?: string } } | undefined;
        try {
          error = (JSON.parse(text) as { error?: typeof error }).error;
        } catch {
          error = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, code: error?.code, dataCode: error?.data?.code, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends only a request head that declares a body over the cap; resolves with the answer once the server closes the connection. */
function declareOversized(port: number): Promise<{ head: string; body: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const split = (closedByServer: boolean) => {
      const at = received.indexOf('\r\n\r\n');
      resolve({ head: at === -1 ? received : received.slice(0, at), body: at === -1 ? '' : received.slice(at + 4), closedByServer });
    };
    // A server that keeps the connection open waiting for the body fails the test instead of hanging it.
    const giveUp = setTimeout(() => {
      socket.removeAllListeners('close');
      socket.destroy();
      split(false);
    }, 5000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(giveUp);
      split(true);
    });
    socket.write(
      `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: ${ACCEPT_BOTH}\r\ncontent-length: ${MAX_BODY_BYTES * 16}\r\n\r\n`,
    );
  });
}

const initialize = (protocolVersion: string, id: number = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'bad-input', version: '1' } },
});
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const deeplyNested = (levels: number) => `{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`;

interface Case {
  name: string;
  method?: string;
  /** Which session's id to send, if any. */
  session?: 'modern' | 'legacy' | 'unknown';
  headers?: Record<string, string>;
  body?: string;
  status: number;
  code: number | string;
  dataCode?: string;
  /** What the refusal says, where its wording is what tells the cases apart. */
  says?: RegExp;
}

const CASES: Case[] = [
  { name: 'malformed JSON', body: '{"jsonrpc":', status: 400, code: -32700 },
  { name: 'an empty body', body: '', status: 400, code: -32700 },
  { name: 'valid JSON that is not JSON-RPC', body: '{"hello":"world"}', status: 400, code: -32600 },
  { name: 'an empty batch', body: '[]', status: 400, code: -32600 },
  { name: 'JSON nested deeper than the cap', body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":${deeplyNested(1000)}}`, status: 400, code: -32600, dataCode: 'InvalidArguments' },
  { name: 'wrong content type', headers: { 'content-type': 'text/plain', accept: ACCEPT_BOTH }, body: JSON.stringify(initialize('2025-06-18')), status: 415, code: -32000 },
  { name: 'Accept without text/event-stream', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(initialize('2025-06-18')), status: 406, code: -32000 },
  { name: 'Accept without application/json', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(initialize('2025-06-18')), status: 406, code: -32000 },
  { name: 'no Accept header', headers: { 'content-type': 'application/json' }, body: JSON.stringify(initialize('2025-06-18')), status: 406, code: -32000 },
  { name: 'wrong content type on a session', session: 'modern', headers: { 'content-type': 'text/plain', accept: ACCEPT_BOTH }, body: JSON.stringify(ping(2)), status: 415, code: -32000 },
  { name: 'wrong Accept on a session', session: 'modern', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(ping(2)), status: 406, code: -32000 },
  { name: 'an unknown session', session: 'unknown', body: JSON.stringify(ping(2)), status: 404, code: -32001 },
  { name: 'no session on a request other than initialize', body: JSON.stringify(ping(2)), status: 400, code: -32000 },
  { name: 'no session on a notification', body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), status: 400, code: -32000 },
  { name: 'a batch holding initialize', body: JSON.stringify([initialize('2025-06-18')]), status: 400, code: -32600 },
  { name: 'a legacy batch holding initialize and another request', body: JSON.stringify([initialize('2025-03-26'), ping(2)]), status: 400, code: -32600 },
  { name: 'initialize again on a live session', session: 'modern', body: JSON.stringify(initialize('2025-06-18', 9)), status: 400, code: -32600, says: /already initialized/i },
  { name: 'a batch on a session whose version removed batching', session: 'modern', body: JSON.stringify([ping(2), ping(3)]), status: 400, code: -32600, says: /no JSON-RPC batching/ },
  { name: 'a legacy batch over 100 messages', session: 'legacy', body: JSON.stringify(Array.from({ length: 101 }, (_, i) => ping(i + 10))), status: 400, code: -32600 },
  { name: 'an unsupported MCP-Protocol-Version', session: 'modern', headers: { ...JSON_HEADERS, 'mcp-protocol-version': '1999-01-01' }, body: JSON.stringify(ping(2)), status: 400, code: -32600, says: /1999-01-01 is not supported/ },
  { name: 'GET without a session', method: 'GET', headers: { accept: 'text/event-stream' }, status: 400, code: -32000 },
  { name: 'GET on an unknown session', method: 'GET', session: 'unknown', headers: { accept: 'text/event-stream' }, status: 404, code: -32001 },
  { name: 'GET that does not accept text/event-stream', method: 'GET', session: 'modern', headers: { accept: 'application/json' }, status: 406, code: -32000 },
  { name: 'GET with an unsupported MCP-Protocol-Version', method: 'GET', session: 'modern', headers: { accept: 'text/event-stream', 'mcp-protocol-version': '1999-01-01' }, status: 400, code: -32600 },
  { name: 'DELETE without a session', method: 'DELETE', headers: {}, status: 400, code: -32000 },
  { name: 'DELETE on an unknown session', method: 'DELETE', session: 'unknown', headers: {}, status: 404, code: -32001 },
  { name: 'DELETE with an unsupported MCP-Protocol-Version', method: 'DELETE', session: 'modern', headers: { 'mcp-protocol-version': '1999-01-01' }, status: 400, code: -32600 },
  { name: 'PUT on a session', method: 'PUT', session: 'modern', headers: JSON_HEADERS, body: JSON.stringify(ping(2)), status: 405, code: -32000 },
  { name: 'PUT without a session', method: 'PUT', headers: JSON_HEADERS, body: JSON.stringify(ping(2)), status: 400, code: -32000 },
  { name: 'a foreign browser Origin', headers: { ...JSON_HEADERS, origin: 'http://localhost:3000' }, body: JSON.stringify(initialize('2025-06-18')), status: 403, code: 'Forbidden' },
  { name: 'a rebinding Host header', headers: { ...JSON_HEADERS, host: 'evil.example:80' }, body: JSON.stringify(initialize('2025-06-18')), status: 403, code: 'Forbidden' },
];

describe('/mcp refuses bad input with the same status and JSON-RPC code whatever transport serves it', () => {
  let junction: TestJunction;
  const sessions: Record<'modern' | 'legacy', string> = { modern: '', legacy: '' };

  const open = async (protocolVersion: string): Promise<string> => {
    const init = await exchange(junction.port, 'POST', JSON_HEADERS, JSON.stringify(initialize(protocolVersion)));
    assert.equal(init.status, 200, init.text);
    const id = String(init.headers['mcp-session-id']);
    const initialized = await exchange(junction.port, 'POST', { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': protocolVersion }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    assert.equal(initialized.status, 202);
    return id;
  };

  before(async () => {
    junction = await startTestJunction([`max-body-bytes=${MAX_BODY_BYTES}`]);
    sessions.modern = await open('2025-06-18');
    sessions.legacy = await open('2025-03-26');
  });
  after(() => junction.stop());

  for (const c of CASES) {
    test(`${c.name}: ${c.status} ${c.code}`, async () => {
      const sessionId = c.session === 'unknown' ? '00000000-0000-4000-8000-000000000000' : c.session ? sessions[c.session] : undefined;
      const headers = { ...(c.headers ?? JSON_HEADERS), ...(sessionId ? { 'mcp-session-id': sessionId } : {}) };
      const answer = await exchange(junction.port, c.method ?? 'POST', headers, c.body);
      assert.equal(answer.status, c.status, answer.text);
      assert.equal(answer.code, c.code, answer.text);
      if (c.dataCode) assert.equal(answer.dataCode, c.dataCode, answer.text);
      if (c.says) assert.match(answer.text, c.says);
    });
  }

  test('an oversized body: 413 PayloadTooLarge, and the server closes the connection instead of reading on', async () => {
    const answer = await declareOversized(junction.port);
    assert.match(answer.head, /^HTTP\/1\.1 413 /);
    // The body may come chunked or not; the JSON object inside is what counts.
    const json = answer.body.slice(answer.body.indexOf('{'), answer.body.lastIndexOf('}') + 1);
    const error = (JSON.parse(json) as { error: { code: number; data: { code: string } } }).error;
    assert.equal(error.code, -32600);
    assert.equal(error.data.code, 'PayloadTooLarge');
    assert.equal(answer.closedByServer, true, 'the server closed the connection');
  });

  test('a second GET stream on one session: 409 -32000', async () => {
    const first = await new Promise<{ status: number; close: () => void }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: junction.port, path: '/mcp', method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sessions.modern }, agent: false },
        (res) => resolve({ status: res.statusCode ?? 0, close: () => req.destroy() }),
      );
      req.on('error', reject);
      req.end();
    });
    try {
      assert.equal(first.status, 200);
      const second = await exchange(junction.port, 'GET', { accept: 'text/event-stream', 'mcp-session-id': sessions.modern });
      assert.equal(second.status, 409, second.text);
      assert.equal(second.code, -32000);
    } finally {
      first.close();
    }
  });

  test('the sessions still serve after every refusal', async () => {
    for (const [name, id] of Object.entries(sessions)) {
      const answer = await exchange(junction.port, 'POST', { ...JSON_HEADERS, 'mcp-session-id': id }, JSON.stringify(ping(77)));
      assert.equal(answer.status, 200, `${name}: ${answer.text}`);
      assert.match(answer.text, /"id":77/);
    }
  });
});
