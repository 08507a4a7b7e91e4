import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import type { HubServerOptions } from '../../../../src-main/bridge/signalr/index.js';
import { buildClient, delay, RawClient, startHub, wsUrl, type Harness } from './hub-harness.js';

async function withHub(options: HubServerOptions, run: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startHub(options);
  try {
    await run(h);
  } finally {
    await h.stop();
  }
}

/** Attempts a WebSocket upgrade and reports the HTTP status and body of a refusal (or 101). */
function tryUpgrade(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.terminate();
      resolve({ status: 101, body: '' });
    });
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('error', (error) => {
      if (!String(error.message).startsWith('Unexpected server response')) reject(error);
    });
  });
}

async function negotiate(h: Harness, query = 'negotiateVersion=1'): Promise<Response> {
  return fetch(`${h.url}/negotiate?${query}`, { method: 'POST' });
}

test('negotiate answers version 1 with a connection token and version 0 without; WebSockets/Text only', async () => {
  await withHub({}, async (h) => {
    const v1 = (await (await negotiate(h)).json()) as Record<string, unknown>;
    assert.equal(v1.negotiateVersion, 1);
    assert.equal(typeof v1.connectionId, 'string');
    assert.equal(typeof v1.connectionToken, 'string');
    assert.notEqual(v1.connectionToken, v1.connectionId);
    assert.deepEqual(v1.availableTransports, [{ transport: 'WebSockets', transferFormats: ['Text'] }]);

    const v0 = (await (await negotiate(h, '')).json()) as Record<string, unknown>;
    assert.equal(v0.negotiateVersion, 0);
    assert.equal(v0.connectionToken, undefined);
    assert.equal((await negotiate(h, 'negotiateVersion=7').then((r) => r.json()) as { negotiateVersion: number }).negotiateVersion, 1);

    const bad = await negotiate(h, 'negotiateVersion=abc');
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: { code: string } }).error.code, 'InvalidArguments');

    const get = await fetch(`${h.url}/negotiate`);
    assert.equal(get.status, 405);
    assert.equal(((await get.json()) as { error: { code: string } }).error.code, 'MethodNotAllowed');

    const plain = await fetch(h.url);
    assert.equal(plain.status, 400);
    const plainBody = (await plain.json()) as { error: { code: string; message: string } };
    assert.equal(plainBody.error.code, 'TransportUnsupported');
    assert.match(plainBody.error.message, /WebSocket connections only/);

    assert.equal((await fetch(`http://127.0.0.1:${h.port}/elsewhere`)).status, 404, 'other paths are left to the composing server');
  });
});

test('a negotiated token opens exactly one connection under the negotiated id; unknown, used and expired tokens get 404', async () => {
  await withHub({}, async (h) => {
    const { connectionId, connectionToken } = (await (await negotiate(h)).json()) as { connectionId: string; connectionToken: string };
    const raw = await RawClient.open(`${wsUrl(h.url)}?id=${connectionToken}`);
    assert.deepEqual(await raw.handshake(), {});
    assert.deepEqual(h.hub.connections().map((c) => c.id), [connectionId]);
    assert.equal(h.hub.connections()[0]?.query.has('id'), false, 'the one-time token is not exposed downstream');
    raw.close();

    const reused = await tryUpgrade(`${wsUrl(h.url)}?id=${connectionToken}`);
    assert.equal(reused.status, 404);
    assert.equal((JSON.parse(reused.body) as { error: { code: string } }).error.code, 'ConnectionNotFound');
    assert.equal((await tryUpgrade(`${wsUrl(h.url)}?id=made-up`)).status, 404);

    await assert.rejects(tryUpgrade(`${wsUrl(h.url)}/other`), /socket hang up/, 'other paths are left to the composing server');
  });
});

test('a token not used within negotiateTokenTtlMs expires', async () => {
  await withHub({ negotiateTokenTtlMs: 1 }, async (h) => {
    const { connectionToken: stale } = (await (await negotiate(h)).json()) as { connectionToken: string };
    await delay(20);
    assert.equal((await tryUpgrade(`${wsUrl(h.url)}?id=${stale}`)).status, 404);
  });
});

test('authorize runs before negotiate and before the upgrade; a refusal answers its status and code', async () => {
  const seen: string[] = [];
  const options: HubServerOptions = {
    authorize: async (req) => {
      seen.push(new URL(req.url ?? '/', 'http://x').pathname);
      return req.headers['x-api-key'] === 'good' ? { ok: true } : { ok: false, status: 401, code: 'Unauthorized', message: 'Missing or wrong API key.' };
    },
  };
  await withHub(options, async (h) => {
    const refused = await negotiate(h);
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), { error: { code: 'Unauthorized', message: 'Missing or wrong API key.' } });
    const upgrade = await tryUpgrade(wsUrl(h.url));
    assert.equal(upgrade.status, 401);
    assert.equal((JSON.parse(upgrade.body) as { error: { code: string } }).error.code, 'Unauthorized');

    const rejected = buildClient(h.url);
    await assert.rejects(rejected.start(), /401/);

    const client = buildClient(h.url, { headers: { 'x-api-key': 'good' } });
    h.hub.on('Ping', () => 'pong');
    await client.start();
    try {
      assert.equal(await client.invoke('Ping'), 'pong');
    } finally {
      await client.stop();
    }
    assert.ok(seen.includes('/hub/mcp-server/negotiate') && seen.includes('/hub/mcp-server'));
  });
});
