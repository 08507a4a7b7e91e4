import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { startTestJunction, type TestJunction } from '../../support/junction-harness.js';

/** A raw request, so the test controls the Host and Origin headers that fetch would set itself. */
function raw(port: number, path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const codeOf = (body: string) => (JSON.parse(body) as { error: { code: string } }).error.code;

describe('access: token mode, origins and DNS rebinding', () => {
  let junction: TestJunction;
  before(async () => {
    junction = await startTestJunction(['auth=token', 'token=s3cret-token-for-tests']);
  });
  after(() => junction.stop());

  test('agents need the bearer token on /mcp and /api', async () => {
    const host = `127.0.0.1:${junction.port}`;
    const missing = await raw(junction.port, '/api/tools', { host });
    assert.equal(missing.status, 401);
    assert.equal(codeOf(missing.body), 'Unauthorized');
    const wrong = await raw(junction.port, '/api/tools', { host, authorization: 'Bearer s3cret-token-for-testX' });
    assert.equal(wrong.status, 401);
    const right = await raw(junction.port, '/api/tools', { host, authorization: 'Bearer s3cret-token-for-tests' });
    assert.equal(right.status, 200);
    await assert.rejects(junction.connectAgent({ token: 'nope' }));
    const agent = await junction.connectAgent({ token: 's3cret-token-for-tests' });
    assert.ok((await agent.listTools()).tools.some((t) => t.name === 'server-status'));
  });

  test('plugins need the token at the hub', async () => {
    const connect = (token: string | undefined) =>
      new HubConnectionBuilder()
        .withUrl(`${junction.baseUrl}/hub/mcp-server`, {
          transport: HttpTransportType.WebSockets,
          ...(token ? { accessTokenFactory: () => token } : {}),
        })
        .configureLogging(LogLevel.None)
        .build();
    await assert.rejects(connect(undefined).start());
    const ok = connect('s3cret-token-for-tests');
    await ok.start();
    await ok.stop();
  });

  test('a rebinding Host header or a foreign browser origin is refused before any route', async () => {
    const auth = { authorization: 'Bearer s3cret-token-for-tests' };
    const rebound = await raw(junction.port, '/api/tools', { ...auth, host: `evil.example:${junction.port}` });
    assert.equal(rebound.status, 403);
    assert.equal(codeOf(rebound.body), 'Forbidden');
    const foreign = await raw(junction.port, '/api/tools/server-status', { ...auth, host: `127.0.0.1:${junction.port}`, origin: 'http://evil.example', 'content-type': 'application/json' }, 'POST', '{}');
    assert.equal(foreign.status, 403);
    const otherLocalPort = await raw(junction.port, '/api/tools/server-status', { ...auth, host: `127.0.0.1:${junction.port}`, origin: 'http://127.0.0.1:5173', 'content-type': 'text/plain' }, 'POST', '{}');
    assert.equal(otherLocalPort.status, 403, 'a page on another local port cannot drive agent endpoints');
    const own = await raw(junction.port, '/api/tools', { ...auth, host: `localhost:${junction.port}`, origin: `http://localhost:${junction.port}` });
    assert.equal(own.status, 200);
  });
});

describe('access: token mode without token=', () => {
  let junction: TestJunction;
  before(async () => {
    junction = await startTestJunction(['auth=token']);
  });
  after(() => junction.stop());

  test('starts with a token generated and stored owner-only in the state directory, and requires it', async () => {
    const token = junction.agentToken;
    assert.ok(token !== undefined && token.length >= 32, 'a token was generated');
    const stored = join(junction.stateDir, 'auth', 'token');
    assert.equal(readFileSync(stored, 'utf8').trim(), token);
    const host = `127.0.0.1:${junction.port}`;
    assert.equal((await raw(junction.port, '/api/tools', { host })).status, 401);
    assert.equal((await raw(junction.port, '/api/tools', { host, authorization: `Bearer ${token}` })).status, 200);
  });
});

describe('access: one origin policy for /mcp, /api and the plugin hub, in every auth mode', () => {
  for (const args of [[], ['auth=token', 'token=s3cret-token-for-tests']]) {
    const mode = args.length === 0 ? 'none' : 'token';
    test(`auth=${mode}: a foreign browser origin gets 403 on negotiate and on the WebSocket upgrade; no Origin still connects`, async () => {
      const junction = await startTestJunction(args);
      try {
        const headers = { host: `127.0.0.1:${junction.port}`, ...(mode === 'token' ? { authorization: 'Bearer s3cret-token-for-tests' } : {}) };
        for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://evil.example']) {
          const negotiate = await raw(junction.port, '/hub/mcp-server/negotiate?negotiateVersion=1', { ...headers, origin }, 'POST');
          assert.equal(negotiate.status, 403, `negotiate from ${origin}`);
          assert.equal(codeOf(negotiate.body), 'Forbidden');
          const upgrade = await raw(junction.port, '/hub/mcp-server', {
            ...headers,
            origin,
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-version': '13',
            'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          });
          assert.equal(upgrade.status, 403, `upgrade from ${origin}`);
          assert.equal(codeOf(upgrade.body), 'Forbidden');
          const mcp = await raw(junction.port, '/mcp', { ...headers, origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, 'POST', '{}');
          assert.equal(mcp.status, 403, `/mcp from ${origin}`);
        }
        const own = await raw(junction.port, '/hub/mcp-server/negotiate?negotiateVersion=1', { ...headers, origin: `http://127.0.0.1:${junction.port}` }, 'POST');
        assert.equal(own.status, 200, 'our own origin may negotiate');
        const plugin = new HubConnectionBuilder()
          .withUrl(`${junction.baseUrl}/hub/mcp-server`, { transport: HttpTransportType.WebSockets, ...(mode === 'token' ? { accessTokenFactory: () => 's3cret-token-for-tests' } : {}) })
          .configureLogging(LogLevel.None)
          .build();
        await plugin.start();
        await plugin.stop();
      } finally {
        await junction.stop();
      }
    });
  }
});

describe('the operator can stop and start the bridge', () => {
  let junction: TestJunction;
  before(async () => {
    junction = await startTestJunction();
  });
  after(() => junction.stop());

  test('stopped: agent endpoints answer 503 PluginUnavailable while the console stays up; started: served again', async () => {
    const stopped = await junction.control.stopBridge();
    assert.equal(stopped.running, false);
    const refused = await fetch(`${junction.baseUrl}/api/tools`);
    assert.equal(refused.status, 503);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'PluginUnavailable');
    assert.equal((await fetch(`${junction.baseUrl}/healthz`)).status, 200);
    const started = await junction.control.startBridge();
    assert.equal(started.running, true);
    assert.equal((await fetch(`${junction.baseUrl}/api/tools`)).status, 200);
  });

  test('the bridge view carries exact client snippets for this port', async () => {
    const snapshot = await junction.control.snapshot();
    assert.equal(snapshot.bridge.port, junction.port);
    assert.equal(snapshot.bridge.mcpUrl, `${junction.baseUrl}/mcp`);
    const stdio = JSON.parse(snapshot.bridge.snippets[0]!.text) as { mcpServers: { junction: { args: string[] } } };
    assert.deepEqual(stdio.mcpServers.junction.args.slice(-3), ['connect', '--port', String(junction.port)]);
  });
});
