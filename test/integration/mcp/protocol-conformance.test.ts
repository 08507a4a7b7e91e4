import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { runExample, sdkExampleClient } from '../../support/sdk-examples.js';

const ACCEPT = 'application/json, text/event-stream';
/** The SDK's own example client: calls a tool Junction does not have, three times in parallel. */
const SDK_PARALLEL_CLIENT = sdkExampleClient('parallelToolCallsClient');

describe('/mcp follows the MCP spec where conformance checks look', () => {
  let junction: TestJunction;

  before(async () => {
    junction = await startTestJunction();
  });
  after(() => junction.stop());

  const post = async (body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${junction.baseUrl}/mcp`, { method: 'POST', body, headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers } });
    return { status: response.status, text: await response.text(), sessionId: response.headers.get('mcp-session-id') };
  };
  const errorCode = (text: string) => (JSON.parse(text) as { error: { code: number } }).error.code;

  /** A raw session at `protocolVersion`, as a client that negotiates it would open one. */
  const openSession = async (protocolVersion: string) => {
    const init = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    assert.equal(init.status, 200);
    assert.match(init.text, new RegExp(`"protocolVersion":"${protocolVersion}"`));
    const sessionId = init.sessionId!;
    const initialized = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion });
    assert.equal(initialized.status, 202);
    return sessionId;
  };
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

  test('an unknown tool is JSON-RPC error -32602 naming the nearest tools; /api keeps 404', async () => {
    const agent = await junction.connectAgent();
    const failure = await agent.callTool({ name: 'server-statu', arguments: {} }).then(
      () => assert.fail('an unknown tool must not produce a result'),
      (error: unknown) => error,
    );
    assert.ok(failure instanceof McpError);
    assert.equal(failure.code, -32602);
    assert.match(failure.message, /Tool 'server-statu' is not in the catalogue\. Did you mean 'server-status'\?/);
    assert.equal((failure.data as { code: string }).code, 'ToolNotFound');
    const api = await fetch(`${junction.baseUrl}/api/tools/server-statu`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { error: { code: string } }).error.code, 'ToolNotFound');
  });

  test("the SDK's example client sees an unknown tool as a JSON-RPC error with one prefix", async () => {
    const { code, output } = await runExample(SDK_PARALLEL_CLIENT, `${junction.baseUrl}/mcp`);
    assert.equal(code, 1, output);
    // The three calls run in parallel, so whichever fails first is the one the example reports.
    assert.match(output, /Error in tool call for (fast|slow|burst)-notifier: McpError: MCP error -32602: Tool 'start-notification-stream' is not in the catalogue\./);
    assert.doesNotMatch(output, /MCP error -32602: MCP error/);
  });

  test('valid JSON that is not JSON-RPC is -32600 Invalid Request; broken JSON stays -32700', async () => {
    for (const body of ['{"hello":"world"}', '42', '[]', '{"jsonrpc":"1.0","id":1,"method":"ping"}']) {
      const answer = await post(body);
      assert.equal(answer.status, 400, body);
      assert.equal(errorCode(answer.text), -32600, body);
    }
    assert.equal(errorCode((await post('{"jsonrpc":')).text), -32700);
  });

  test('unknown prompts and resources read one "MCP error -32602:" prefix, not two', async () => {
    const agent = await junction.connectAgent();
    for (const attempt of [() => agent.getPrompt({ name: 'no-such-prompt' }), () => agent.readResource({ uri: 'scene://no-such' })]) {
      const failure = await attempt().then(() => assert.fail('must fail'), (error: unknown) => error as McpError);
      assert.equal(failure.code, -32602);
      assert.match(failure.message, /^MCP error -32602: No connected plugin publishes/);
      assert.doesNotMatch(failure.message, /MCP error -32602: MCP error/);
    }
  });

  test('batches are refused on sessions at 2025-06-18 and later, and still served on 2025-03-26', async () => {
    const modern = await openSession('2025-06-18');
    const refused = await post(JSON.stringify([ping(2), ping(3)]), { 'mcp-session-id': modern, 'mcp-protocol-version': '2025-06-18' });
    assert.equal(refused.status, 400);
    assert.equal(errorCode(refused.text), -32600);
    assert.match(refused.text, /no JSON-RPC batching/);
    const batchedInitialize = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }]));
    assert.equal(batchedInitialize.status, 400);
    assert.equal(errorCode(batchedInitialize.text), -32600);

    const legacy = await openSession('2025-03-26');
    const served = await post(JSON.stringify([ping(2), ping(3)]), { 'mcp-session-id': legacy, 'mcp-protocol-version': '2025-03-26' });
    assert.equal(served.status, 200);
    assert.match(served.text, /"id":2/);
    assert.match(served.text, /"id":3/);
  });

  test('an unsupported MCP-Protocol-Version header is 400; a supported one (negotiated or not) or none is served', async () => {
    const session = await openSession('2025-06-18');
    const unsupported = await post(JSON.stringify(ping(2)), { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' });
    assert.equal(unsupported.status, 400);
    assert.match(unsupported.text, /1999-01-01 is not supported/);
    // What the official conformance suite sends (server-sse-multiple-streams): an older supported version on a newer session.
    const older = await post(JSON.stringify(ping(3)), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' });
    assert.equal(older.status, 200);
    const same = await post(JSON.stringify(ping(4)), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
    assert.equal(same.status, 200);
    const absent = await post(JSON.stringify(ping(5)), { 'mcp-session-id': session });
    assert.equal(absent.status, 200);
    const deleteUnsupported = await fetch(`${junction.baseUrl}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' } });
    assert.equal(deleteUnsupported.status, 400);
  });
});
