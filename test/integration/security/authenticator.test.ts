import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { createAuthorizationWebhook } from '../../../src-main/bridge/webhooks/index.js';
import { createAuthenticator, type Authenticator, type ClientKind } from '../../../src-main/security/index.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';
import { json, recordingLogger, refusedUrl, startReceiver, type Receiver } from '../bridge/webhooks/receiver.js';
import { reply, send, startServer, type Harness } from './http-harness.js';

const TOKEN = 'Zx9-correct-token-0123456789abcdef';

/** Serves /mcp and /api as agent endpoints and /hub as the plugin endpoint, answering with the auth result. */
async function serve(authenticator: Authenticator): Promise<Harness> {
  return startServer(async (req: IncomingMessage, res) => {
    const kind: ClientKind = req.url?.startsWith('/hub') ? 'plugin' : 'agent';
    const result = await authenticator.authenticate(req, kind, { connectionId: 'fixed-connection' });
    if (result.ok) reply(res, 200, result.principal);
    else reply(res, result.status, { error: { code: result.code, message: result.message } });
  });
}

describe('authenticator, mode none', () => {
  let server: Harness;
  before(async () => {
    server = await serve(createAuthenticator({ mode: 'none' }));
  });
  after(() => server.close());

  test('allows every agent and plugin, with or without a token', async () => {
    for (const path of ['/mcp', '/api/tools/x', '/hub/mcp-server']) {
      const { status, body } = await send(server.port, { path });
      assert.equal(status, 200, path);
      assert.equal((JSON.parse(body) as { authenticatedBy: string }).authenticatedBy, 'none');
    }
    assert.equal((await send(server.port, { path: '/mcp', headers: { authorization: 'Bearer whatever' } })).status, 200);
  });
});

describe('authenticator, mode token', () => {
  let server: Harness;
  before(async () => {
    server = await serve(createAuthenticator({ mode: 'token', token: TOKEN }));
  });
  after(() => server.close());

  test('the right Bearer token is allowed for agents and plugins', async () => {
    for (const path of ['/mcp', '/api/tools/x', '/hub/mcp-server']) {
      const { status, body } = await send(server.port, { path, headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(status, 200, path);
      const principal = JSON.parse(body) as { kind: string; authenticatedBy: string; connectionId: string; remoteAddress: string };
      assert.equal(principal.kind, path.startsWith('/hub') ? 'plugin' : 'agent');
      assert.equal(principal.authenticatedBy, 'token');
      assert.equal(principal.connectionId, 'fixed-connection');
      assert.equal(principal.remoteAddress, '127.0.0.1');
    }
  });

  test('a missing, wrong, truncated or extended token is refused with 401 Unauthorized', async () => {
    const cases: Record<string, string> = {
      missing: '',
      wrong: `Bearer ${TOKEN.replace('Z', 'Y')}`,
      truncated: `Bearer ${TOKEN.slice(0, -1)}`,
      extended: `Bearer ${TOKEN}x`,
      'other scheme': `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`,
    };
    for (const [name, authorization] of Object.entries(cases)) {
      const { status, body } = await send(server.port, { path: '/mcp', headers: authorization ? { authorization } : {} });
      assert.equal(status, 401, name);
      const { error } = JSON.parse(body) as { error: { code: string; message: string } };
      assert.equal(error.code, 'Unauthorized', name);
      assert.equal(error.message.includes(TOKEN), false, 'the expected token is never echoed');
    }
  });

  test('plugins may present the token as access_token on the hub URL; agents may not', async () => {
    const query = `?id=abc&access_token=${encodeURIComponent(TOKEN)}`;
    assert.equal((await send(server.port, { path: `/hub/mcp-server${query}` })).status, 200);
    assert.equal((await send(server.port, { path: `/mcp${query}` })).status, 401);
    assert.equal((await send(server.port, { path: '/hub/mcp-server?access_token=wrong' })).status, 401);
  });

  test('token mode without a token is a configuration error', () => {
    assert.throws(() => createAuthenticator({ mode: 'token' }), (error: unknown) => error instanceof JunctionError && error.code === 'ConfigInvalid');
    assert.throws(() => createAuthenticator({ mode: 'token', token: '' }), JunctionError);
  });
});

describe('authenticator with the authorization webhook', () => {
  let receiver: Receiver;
  let decide: (body: Record<string, unknown>) => { allowed: boolean; reason?: string } = () => ({ allowed: true });

  before(async () => {
    receiver = await startReceiver((request, res) => json(res, 200, decide(JSON.parse(request.raw) as Record<string, unknown>)));
  });
  after(() => receiver.close());

  async function withServer(mode: 'none' | 'token', url: string, run: (port: number) => Promise<void>): Promise<void> {
    const webhook = createAuthorizationWebhook({ url, token: 'hook-secret', timeoutMs: 2000, logger: recordingLogger() });
    const server = await serve(createAuthenticator({ mode, token: TOKEN, webhook }));
    try {
      await run(server.port);
    } finally {
      await server.close();
    }
  }

  test('the webhook sees who is connecting and its allow lets the request through', async () => {
    decide = () => ({ allowed: true });
    await withServer('token', receiver.url(), async (port) => {
      const start = receiver.received.length;
      const { status, body } = await send(port, { path: `/hub/mcp-server?access_token=${TOKEN}`, headers: { 'user-agent': 'unity-plugin/2.0' } });
      assert.equal(status, 200);
      assert.equal((JSON.parse(body) as { authorizedBy: string }).authorizedBy, 'webhook');
      const asked = JSON.parse(receiver.received[start]?.raw ?? '{}') as Record<string, unknown>;
      assert.equal(asked.eventType, 'authorization.plugin');
      assert.equal(asked.connectionId, 'fixed-connection');
      assert.equal(asked.bearerToken, TOKEN);
      assert.equal(asked.remoteIpAddress, '127.0.0.1');
      assert.equal(asked.userAgent, 'unity-plugin/2.0');
      assert.equal(asked.requestPath, '/hub/mcp-server', 'the query (and its access_token) is not repeated');
    });
  });

  test('a webhook denial is 403 Forbidden with the reason, in mode none too', async () => {
    decide = (body) => (body.bearerToken === 'vip' ? { allowed: true } : { allowed: false, reason: 'IP not in allowlist' });
    await withServer('none', receiver.url(), async (port) => {
      const denied = await send(port, { path: '/mcp' });
      assert.equal(denied.status, 403);
      assert.deepEqual(JSON.parse(denied.body), { error: { code: 'Forbidden', message: 'Authorization denied: IP not in allowlist' } });
      assert.equal((await send(port, { path: '/mcp', headers: { authorization: 'Bearer vip' } })).status, 200);
    });
  });

  test('a wrong token is refused locally without asking the webhook', async () => {
    decide = () => ({ allowed: true });
    await withServer('token', receiver.url(), async (port) => {
      const start = receiver.received.length;
      assert.equal((await send(port, { path: '/mcp', headers: { authorization: 'Bearer nope' } })).status, 401);
      assert.equal(receiver.received.length, start);
    });
  });

  test('an unreachable webhook closes the door (fail-closed default)', async () => {
    await withServer('token', await refusedUrl(), async (port) => {
      const { status, body } = await send(port, { path: '/mcp', headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(status, 403);
      assert.match(body, /authorization service unavailable/);
    });
  });
});
