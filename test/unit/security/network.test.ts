import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertBindAllowed, checkOrigin, isLoopbackAddress, isLoopbackHostName, type OriginPolicy } from '../../../src-main/security/index.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';

describe('loopback recognition', () => {
  test('loopback addresses in all their spellings', () => {
    for (const address of ['127.0.0.1', '127.10.20.30', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
      assert.equal(isLoopbackAddress(address), true, address);
    }
  });

  test('non-loopback addresses and names', () => {
    for (const address of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.100', '128.0.0.1', '::2', 'localhost', '127.0.0.1.evil.example']) {
      assert.equal(isLoopbackAddress(address), false, address);
    }
  });

  test('host names: localhost (any case, trailing dot) and loopback literals only', () => {
    for (const name of ['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '[::1]']) assert.equal(isLoopbackHostName(name), true, name);
    for (const name of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', 'me.localhost']) assert.equal(isLoopbackHostName(name), false, name);
  });
});

describe('assertBindAllowed', () => {
  test('mode none is fine on loopback', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1']) assertBindAllowed({ host, mode: 'none' });
  });

  test('mode none on a non-loopback address refuses to start with ConfigInvalid', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
      assert.throws(
        () => assertBindAllowed({ host, mode: 'none' }),
        (error: unknown) => error instanceof JunctionError && error.code === 'ConfigInvalid' && error.message.includes(host) && error.message.includes('mode=token'),
      );
    }
  });

  test('mode token may bind anywhere, but needs a token', () => {
    assertBindAllowed({ host: '0.0.0.0', mode: 'token', token: 'secret-secret-secret' });
    assert.throws(() => assertBindAllowed({ host: '127.0.0.1', mode: 'token' }), (error: unknown) => error instanceof JunctionError && error.code === 'ConfigInvalid');
  });
});

describe('checkOrigin', () => {
  const policy: OriginPolicy = { port: 4100 };
  const check = (headers: Record<string, string>, p: OriginPolicy = policy) => checkOrigin({ headers }, p);

  test('loopback Host with our port and no Origin passes', () => {
    for (const host of ['127.0.0.1:4100', 'localhost:4100', '[::1]:4100', 'LocalHost:4100']) assert.deepEqual(check({ host }), { ok: true }, host);
  });

  test('a foreign Host (DNS rebinding) is refused with 403 Forbidden', () => {
    const result = check({ host: 'evil.example:4100' });
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.equal(result.status, 403);
    assert.equal(result.code, 'Forbidden');
    assert.match(result.message, /evil\.example/);
  });

  test('a loopback Host naming another port, no port, or a malformed value is refused', () => {
    for (const host of ['127.0.0.1:4101', 'localhost', 'evil.example@127.0.0.1:4100', '127.0.0.1:4100/x', '127.0.0.1:4100 ', '']) {
      assert.equal(check({ host }).ok, false, JSON.stringify(host));
    }
    assert.equal(checkOrigin({ headers: {} }, policy).ok, false);
  });

  test('a loopback server on port 80 accepts a Host without a port', () => {
    assert.equal(check({ host: 'localhost' }, { port: 80 }).ok, true);
  });

  test('configured allowed hosts pass, by name or name:port', () => {
    assert.equal(check({ host: 'junction.internal:8443' }, { port: 4100, allowedHosts: ['junction.internal'] }).ok, true);
    assert.equal(check({ host: 'proxy:9000' }, { port: 4100, allowedHosts: ['proxy:9000'] }).ok, true);
    assert.equal(check({ host: 'proxy:9001' }, { port: 4100, allowedHosts: ['proxy:9000'] }).ok, false);
  });

  test('a loopback browser Origin passes, on any loopback port', () => {
    for (const origin of ['http://127.0.0.1:4100', 'http://localhost:5173', 'http://[::1]:4100', 'https://localhost']) {
      assert.equal(check({ host: '127.0.0.1:4100', origin }).ok, true, origin);
    }
  });

  test('a foreign, opaque or malformed Origin is refused even with a good Host', () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example:4100', 'null', 'file://', 'not a url', 'chrome-extension://abc']) {
      const result = check({ host: '127.0.0.1:4100', origin });
      assert.equal(result.ok, false, origin);
      assert.ok(!result.ok);
      assert.equal(result.status, 403);
    }
  });

  test('configured allowed origins pass', () => {
    const withOrigins: OriginPolicy = { port: 4100, allowedOrigins: ['https://console.example/'] };
    assert.equal(check({ host: '127.0.0.1:4100', origin: 'https://console.example' }, withOrigins).ok, true);
    assert.equal(check({ host: '127.0.0.1:4100', origin: 'http://console.example' }, withOrigins).ok, false);
  });

  test('a server bound beyond loopback skips the Host check but still checks Origin', () => {
    const exposed: OriginPolicy = { port: 4100, bindHost: '0.0.0.0' };
    assert.equal(check({ host: 'junction.lan:4100' }, exposed).ok, true);
    assert.equal(check({ host: 'junction.lan:4100', origin: 'https://evil.example' }, exposed).ok, false);
  });
});
