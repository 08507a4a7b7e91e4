import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createAuthorizationWebhook } from '../../../../src-main/bridge/webhooks/index.js';
import type { AuthorizationRequest } from '../../../../src-main/security/index.js';
import { JunctionError } from '../../../../src-main/contracts/errors.js';
import { json, recordingLogger, refusedUrl, startReceiver, type Receiver, type ReceivedRequest } from './receiver.js';

const SECRET = 'webhook-secret-for-tests';

const agentRequest: AuthorizationRequest = {
  clientType: 'ai-agent',
  connectionId: 'conn-1',
  bearerToken: 'agent-bearer',
  remoteIpAddress: '127.0.0.1',
  userAgent: 'claude-ai/1.0',
  requestPath: '/mcp',
  clientName: null,
  clientVersion: null,
};

const pluginRequest: AuthorizationRequest = {
  clientType: 'plugin',
  connectionId: 'conn-2',
  bearerToken: 'plugin-bearer',
  remoteIpAddress: null,
  userAgent: null,
  requestPath: null,
  clientName: 'my-unity-plugin',
  clientVersion: '1.2.0',
};

/** The receiver's own check, written from the published rule rather than from our signing code. */
function verifySignature(raw: string, secret: string): boolean {
  const match = /,"hmacSignature":"(sha256=[0-9a-f]{64})"}$/.exec(raw);
  if (!match?.[1]) return false;
  const unsigned = `${raw.slice(0, match.index)}}`;
  const expected = `sha256=${createHmac('sha256', secret).update(unsigned).digest('hex')}`;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(match[1]));
}

type Behaviour = (request: ReceivedRequest, res: ServerResponse) => void;

describe('authorization webhook over real HTTP', () => {
  let receiver: Receiver;
  let behaviour: Behaviour = (_request, res) => json(res, 200, { allowed: true });
  const held: ServerResponse[] = [];

  before(async () => {
    receiver = await startReceiver((request, res) => behaviour(request, res));
  });
  after(async () => {
    for (const res of held) res.destroy();
    await receiver.close();
  });

  const gate = (overrides: { failOpen?: boolean; token?: string; timeoutMs?: number; headerName?: string; url?: string } = {}) => {
    const logger = recordingLogger();
    const webhook = createAuthorizationWebhook({ url: receiver.url('/authorize'), token: SECRET, timeoutMs: 2000, logger, ...overrides });
    return { webhook, logger };
  };

  test('posts the published payload, signed, with the token header, and allows on allowed:true', async () => {
    behaviour = (_request, res) => json(res, 200, { allowed: true });
    const before = receiver.received.length;
    const { webhook, logger } = gate();
    const decision = await webhook.authorize(agentRequest);
    assert.deepEqual(decision, { allowed: true, via: 'webhook' });

    const request = receiver.received[before];
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/authorize');
    assert.equal(request.headers['x-webhook-token'], SECRET);
    assert.match(String(request.headers['content-type']), /^application\/json/);
    assert.equal(verifySignature(request.raw, SECRET), true, 'signature verifies from the raw body');
    assert.equal(verifySignature(request.raw, 'another-secret'), false, 'and not with another key');

    const body = JSON.parse(request.raw) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), [
      'schemaVersion', 'eventType', 'timestamp', 'connectionId', 'clientType', 'bearerToken',
      'remoteIpAddress', 'userAgent', 'requestPath', 'clientName', 'clientVersion', 'hmacSignature',
    ]);
    assert.equal(body.schemaVersion, '1.0');
    assert.equal(body.eventType, 'authorization.ai-agent');
    assert.equal(new Date(String(body.timestamp)).toISOString(), body.timestamp);
    assert.equal(body.bearerToken, 'agent-bearer');
    assert.equal(body.requestPath, '/mcp');
    assert.equal(body.clientName, null);

    const { hmacSignature, ...unsigned } = body;
    assert.equal(hmacSignature, `sha256=${createHmac('sha256', SECRET).update(JSON.stringify(unsigned)).digest('hex')}`, 're-serialising without the field gives the signed bytes');
    assert.equal(logger.entries.length, 1);
    assert.equal(JSON.stringify(logger.entries).includes('agent-bearer'), false, 'bearer tokens never reach the log');
  });

  test('plugin requests use eventType authorization.plugin and carry client name and version', async () => {
    const before = receiver.received.length;
    await gate().webhook.authorize(pluginRequest);
    const body = JSON.parse(receiver.received[before]?.raw ?? '{}') as Record<string, unknown>;
    assert.equal(body.eventType, 'authorization.plugin');
    assert.equal(body.clientType, 'plugin');
    assert.equal(body.clientName, 'my-unity-plugin');
    assert.equal(body.clientVersion, '1.2.0');
  });

  test('without a token there is neither signature nor token header', async () => {
    const before = receiver.received.length;
    const logger = recordingLogger();
    await createAuthorizationWebhook({ url: receiver.url('/authorize'), logger }).authorize(agentRequest);
    const request = receiver.received[before];
    assert.ok(request);
    assert.equal(request.headers['x-webhook-token'], undefined);
    assert.equal('hmacSignature' in (JSON.parse(request.raw) as object), false);
  });

  test('a custom header name carries the token', async () => {
    const before = receiver.received.length;
    await gate({ headerName: 'X-Junction-Auth' }).webhook.authorize(agentRequest);
    const request = receiver.received[before];
    assert.equal(request?.headers['x-junction-auth'], SECRET);
    assert.equal(request?.headers['x-webhook-token'], undefined);
  });

  test('allowed:false denies with the reason and logs it as a warning, regardless of fail-open', async () => {
    behaviour = (_request, res) => json(res, 200, { allowed: false, reason: 'IP not in allowlist' });
    for (const failOpen of [false, true]) {
      const { webhook, logger } = gate({ failOpen });
      assert.deepEqual(await webhook.authorize(agentRequest), { allowed: false, via: 'webhook', reason: 'IP not in allowlist' });
      assert.equal(logger.entries[0]?.level, 'warn');
      assert.equal(logger.entries[0]?.fields?.reason, 'IP not in allowlist');
    }
  });

  const failures: [string, Behaviour | 'refused', number?][] = [
    ['HTTP 500', (_request, res) => json(res, 500, { allowed: true })],
    // Following the redirect would reach an allowing endpoint, so only a refused redirect passes this.
    ['a redirect', (request, res) => (request.path === '/redirected' ? json(res, 200, { allowed: true }) : void res.writeHead(307, { location: receiver.url('/redirected') }).end())],
    ['invalid JSON', (_request, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"allowed": tru')],
    ['a wrong shape', (_request, res) => json(res, 200, { allowed: 'yes' })],
    ['an oversized answer', (_request, res) => json(res, 200, { allowed: true, padding: 'x'.repeat(100_000) })],
    ['a timeout', (_request, res) => void held.push(res), 150],
    ['connection refused', 'refused'],
  ];

  for (const [name, failure, timeoutMs] of failures) {
    for (const failOpen of [false, true]) {
      test(`${name}: ${failOpen ? 'fail-open allows' : 'fail-closed denies'}`, async () => {
        const url = failure === 'refused' ? await refusedUrl() : receiver.url('/authorize');
        if (failure !== 'refused') behaviour = failure;
        const { webhook, logger } = gate({ failOpen, url, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
        const decision = await webhook.authorize(agentRequest);
        if (failOpen) {
          assert.deepEqual(decision, { allowed: true, via: 'fail-open' });
        } else {
          assert.equal(decision.allowed, false);
          assert.equal(decision.via, 'fail-closed');
        }
        assert.equal(logger.entries[0]?.level, 'warn');
        if (timeoutMs !== undefined) assert.match(String(logger.entries[0]?.fields?.cause), /timed out after 150 ms/);
      });
    }
  }

  test('invalid settings fail at construction with ConfigInvalid', () => {
    const logger = recordingLogger();
    for (const bad of [{ url: 'ftp://x/' }, { url: 'not a url' }, { url: 'http://x/', timeoutMs: 0 }, { url: 'http://x/', headerName: 'bad header' }]) {
      assert.throws(() => createAuthorizationWebhook({ ...bad, logger }), (error: unknown) => error instanceof JunctionError && error.code === 'ConfigInvalid', JSON.stringify(bad));
    }
  });
});
