/**
 * One way to answer an HTTP error: every refusal Junction's own server writes (no route, the access
 * gate, the pin gate, a stopped bridge, refused upgrades) carries `{ error: { code, message } }` at the
 * status the error table gives that code's kind, with the standard reason phrase, whichever part wrote it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, STATUS_CODES } from 'node:http';
import { httpStatusOf, type StructuredError } from '../../../src-main/contracts/index.js';
import { startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const TOKEN = 's3cret-token-for-http-errors';

interface Answer {
  status: number;
  reason: string;
  error: StructuredError;
}

/** A plain request, or an upgrade request that is refused (an accepted upgrade fails the test). */
function send(junction: TestJunction, method: string, path: string, headers: Record<string, string> = {}, upgrade = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: junction.port, method, path, headers: { ...(upgrade ? { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } : {}), ...headers } });
    req.on('upgrade', () => reject(new Error(`${path} was upgraded`)));
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '', error: (JSON.parse(text) as { error: StructuredError }).error });
        } catch (error) {
          reject(new Error(`${method} ${path} answered ${res.statusCode} with a body that is not { error }: ${text}`, { cause: error }));
        }
      });
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

function assertTableAnswer(answer: Answer, code: string, what: string): void {
  assert.equal(answer.error.code, code, what);
  assert.equal(typeof answer.error.message, 'string', what);
  assert.equal(answer.status, httpStatusOf(answer.error), `${what}: the status is the one the error table gives ${code}`);
  assert.equal(answer.reason, STATUS_CODES[answer.status], `${what}: the standard reason phrase`);
}

describe('every HTTP error goes through the error table', () => {
  let junction: TestJunction;
  before(async () => {
    junction = await startTestJunction(['auth=token', `token=${TOKEN}`]);
  });
  after(async () => {
    await junction.stop();
  });

  test('plain requests: no route, access gate, pin gate', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    assertTableAnswer(await send(junction, 'GET', '/nothing-here'), 'ToolNotFound', 'no route');
    assertTableAnswer(await send(junction, 'POST', '/api/tools/server-status'), 'Unauthorized', 'no token');
    assertTableAnswer(await send(junction, 'GET', '/api/tools', { host: 'evil.example:80' }), 'Forbidden', 'a rebinding Host');
    assertTableAnswer(await send(junction, 'POST', '/api/tools/server-status', { ...auth, origin: 'http://localhost:1' }), 'Forbidden', 'a foreign browser origin');
    assertTableAnswer(await send(junction, 'GET', '/p/not-hex/api/tools', auth), 'invalid_project_pin', 'a malformed pin');
    assertTableAnswer(await send(junction, 'GET', '/p/abcd/api/tools', auth), 'ProjectNotConnected', 'a pin with single-project routing');
  });

  test('refused upgrades: no endpoint, access gate', async () => {
    assertTableAnswer(await send(junction, 'GET', '/no-socket-here', {}, true), 'ToolNotFound', 'an upgrade nothing takes');
    assertTableAnswer(await send(junction, 'GET', '/hub/mcp-server', { host: 'evil.example:80' }, true), 'Forbidden', 'an upgrade with a rebinding Host');
    assertTableAnswer(await send(junction, 'GET', '/hub/mcp-server', { origin: 'http://localhost:1' }, true), 'Forbidden', 'an upgrade from a foreign browser origin');
  });

  test('a stopped bridge', async () => {
    await junction.control.stopBridge();
    try {
      assertTableAnswer(await send(junction, 'POST', '/api/tools/server-status', { authorization: `Bearer ${TOKEN}` }), 'PluginUnavailable', 'the bridge stopped');
    } finally {
      await junction.control.startBridge();
    }
  });
});
