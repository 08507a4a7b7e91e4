import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOrigin } from '../../../src-main/security/index.js';
import { reply, send, startServer, type Harness } from './http-harness.js';

describe('DNS-rebinding checks on a real loopback server', () => {
  let server: Harness;
  before(async () => {
    let port = 0;
    server = await startServer((req, res) => {
      const check = checkOrigin(req, { port });
      if (check.ok) reply(res, 200, { ok: true });
      else reply(res, check.status, { error: { code: check.code, message: check.message } });
    });
    port = server.port;
  });
  after(() => server.close());

  test('loopback Host headers with our port are served', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`]) {
      assert.equal((await send(server.port, { headers: { host } })).status, 200, host);
    }
  });

  test('Host evil.example:PORT (a rebound DNS name) is refused with 403 Forbidden', async () => {
    const { status, body } = await send(server.port, { headers: { host: `evil.example:${server.port}` } });
    assert.equal(status, 403);
    assert.equal((JSON.parse(body) as { error: { code: string } }).error.code, 'Forbidden');
  });

  test('a foreign Origin is refused; a loopback Origin and no Origin are served', async () => {
    const host = `127.0.0.1:${server.port}`;
    assert.equal((await send(server.port, { method: 'POST', headers: { host, origin: 'https://evil.example' } })).status, 403);
    assert.equal((await send(server.port, { method: 'POST', headers: { host, origin: `http://localhost:${server.port}` } })).status, 200);
    assert.equal((await send(server.port, { method: 'POST', headers: { host } })).status, 200);
  });
});
