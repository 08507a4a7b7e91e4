/**
 * MCP 2026-07-28 beside the session revisions on one endpoint: raw HTTP for the stateless revision
 * (no SDK speaks it yet) and a real SDK client for 2025-11-25, against a real Junction with the real
 * conformance fixture plugin connected over SignalR.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createConformancePlugin } from '../../../plugins/examples/conformance/plugin.js';
import type { McpPlugin } from '../../../plugins/sdk/index.js';
import type { HistoryPage } from '../../../src-main/contracts/index.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { rawRelay } from '../../support/raw-relay.js';

const VERSION = '2026-07-28';
const NAME_FIELD: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

interface RpcAnswer {
  status: number;
  headers: Headers;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

function meta(overrides: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-agent', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} },
    ...overrides,
  };
}

let nextId = 1;

describe('MCP 2026-07-28 beside 2025-11-25 on one endpoint', () => {
  let junction: TestJunction;
  let fixture: McpPlugin;

  /** A conformant stateless request: standard headers from the body, then `headers` on top (null removes one). */
  const rpc = async (method: string, params: Record<string, unknown> = {}, options: { headers?: Record<string, string | null>; meta?: Record<string, unknown> | null } = {}): Promise<RpcAnswer> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': method };
    const field = NAME_FIELD[method];
    if (field && typeof params[field] === 'string') headers['mcp-name'] = params[field];
    for (const [key, value] of Object.entries(options.headers ?? {})) {
      if (value === null) delete headers[key];
      else headers[key] = value;
    }
    const withMeta = options.meta === null ? params : { ...params, _meta: meta(options.meta ?? {}) };
    const response = await fetch(`${junction.baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: withMeta }) });
    const text = await response.text();
    // An SSE answer ends with the response event.
    const json = response.headers.get('content-type')?.includes('text/event-stream') ? text.trim().split('\n').filter((l) => l.startsWith('data: ')).at(-1)!.slice(6) : text;
    return { status: response.status, headers: response.headers, body: JSON.parse(json) as RpcAnswer['body'] };
  };
  const call = (name: string, extra: Record<string, unknown> = {}, options: Parameters<typeof rpc>[2] = {}) => rpc('tools/call', { name, arguments: {}, ...extra }, options);
  const textOf = (result: Record<string, unknown> | undefined) => ((result?.['content'] as Array<{ text?: string }> | undefined) ?? []).map((c) => c.text ?? '').join('');

  before(async () => {
    junction = await startTestJunction();
    fixture = createConformancePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, watchIntervalMs: 50 });
    await fixture.connect();
    await eventually(async () => ((await rpc('tools/list')).body.result?.['tools'] as Array<{ name: string }>).some((t) => t.name === 'test_input_required_result_elicitation'), 10_000, 'the fixture tools');
  });
  after(async () => {
    await fixture.disconnect();
    await junction.stop();
  });

  test('server/discover, tools/list and tools/call are served without initialize or a session, each result marked complete', async () => {
    const discover = await rpc('server/discover');
    assert.equal(discover.status, 200);
    assert.deepEqual((discover.body.result?.['supportedVersions'] as string[]).slice(0, 1), [VERSION]);
    assert.ok((discover.body.result?.['supportedVersions'] as string[]).includes('2025-11-25'));
    assert.deepEqual((discover.body.result?.['capabilities'] as Record<string, unknown>)['tools'], { listChanged: true });
    assert.equal(discover.body.result?.['resultType'], 'complete');
    assert.equal((discover.body.result?.['_meta'] as Record<string, { name: string }>)['io.modelcontextprotocol/serverInfo']?.name, 'junction');
    assert.equal(discover.headers.get('mcp-session-id'), null);

    const list = await rpc('tools/list');
    assert.equal(list.body.result?.['resultType'], 'complete');
    assert.equal(list.body.result?.['cacheScope'], 'private');
    assert.ok(Number.isSafeInteger(list.body.result?.['ttlMs']));
    const called = await call('test_simple_text');
    assert.equal(called.status, 200);
    assert.equal(called.body.result?.['resultType'], 'complete');
    assert.equal(textOf(called.body.result), 'This is a simple text response for testing.');
    const read = await rpc('resources/read', { uri: 'test://static-text' });
    assert.equal(read.body.result?.['ttlMs'], 0);
    assert.match(JSON.stringify(read.body.result?.['contents']), /static text resource/);
  });

  test('a stateless call lands in the same audit trail, its agent labelled with the revision it speaks', async () => {
    await call('test_image_content');
    junction.audit!.store.flush();
    const page = (await junction.control.execute('history', { tool: 'test_image_content' })) as { ok: true; value: HistoryPage };
    const recorded = page.value.calls[0];
    assert.equal(recorded?.transport, 'mcp-http');
    assert.equal(recorded?.agent, `raw-agent/1.0.0 ${VERSION}`);
    assert.equal(recorded?.status, 'ok');
  });

  test('a 2025-11-25 SDK client keeps its session on the same endpoint while stateless requests come and go', async () => {
    const client = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`)));
    try {
      const [sdk, raw] = await Promise.all([client.callTool({ name: 'test_simple_text', arguments: {} }), call('test_simple_text')]);
      assert.equal(textOf(sdk as Record<string, unknown>), textOf(raw.body.result));
      assert.equal((sdk as Record<string, unknown>)['resultType'], undefined);
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'test_simple_text'));
      // The console's agents say which revision each speaks; the stateless one is present without a session.
      const agents = (await junction.control.snapshot()).agents;
      const session = agents.find((a) => a.clientName === 'sdk-agent');
      const stateless = agents.find((a) => a.clientName === 'raw-agent');
      assert.equal(session?.protocolVersion, '2025-11-25');
      assert.equal(session?.callLabel, undefined);
      assert.deepEqual([stateless?.transport, stateless?.protocolVersion, stateless?.callLabel], ['mcp-http', VERSION, `raw-agent/1.0.0 ${VERSION}`]);
      assert.equal(agents.filter((a) => a.clientName === 'raw-agent').length, 1, 'one agent however many requests it made');
      // What an agent names itself is bounded before the console keeps it.
      await rpc('tools/list', {}, { meta: { 'io.modelcontextprotocol/clientInfo': { name: 'n'.repeat(100_000), version: '1' } } });
      const long = (await junction.control.snapshot()).agents.find((a) => a.clientName?.startsWith('nnn'));
      assert.ok(long && long.clientName!.length < 300 && long.callLabel!.length < 300, JSON.stringify(long).slice(0, 200));
    } finally {
      await client.close();
    }
  });

  test('the standard headers must match the body: missing or wrong Mcp-Method or Mcp-Name is 400 HeaderMismatch (-32020)', async () => {
    const refusals = [
      await rpc('tools/list', {}, { headers: { 'mcp-method': null } }),
      await rpc('tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } }),
      await call('test_simple_text', {}, { headers: { 'mcp-name': null } }),
      await call('test_simple_text', {}, { headers: { 'mcp-name': 'test_error_handling' } }),
      await rpc('tools/list', {}, { meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }),
    ];
    for (const refusal of refusals) {
      assert.equal(refusal.status, 400, JSON.stringify(refusal.body));
      assert.equal(refusal.body.error?.code, -32020);
      assert.equal(refusal.body.error?.data?.['code'], 'HeaderMismatch');
    }
    // A name in the Base64 sentinel is decoded before it is compared.
    const encoded = await call('test_simple_text', {}, { headers: { 'mcp-name': `=?base64?${Buffer.from('test_simple_text').toString('base64')}?=` } });
    assert.equal(encoded.status, 200);
    assert.equal(encoded.body.result?.['resultType'], 'complete');
  });

  test('a parameter marked x-mcp-header needs its Mcp-Param header, equal to the body once decoded', async () => {
    const args = { arguments: { region: 'us-west1' } };
    const ok = await call('test_custom_header', args, { headers: { 'mcp-param-region': 'us-west1' } });
    assert.equal(textOf(ok.body.result), 'Region: us-west1');
    const encoded = await call('test_custom_header', { arguments: { region: 'Grüße' } }, { headers: { 'mcp-param-region': `=?base64?${Buffer.from('Grüße').toString('base64')}?=` } });
    assert.equal(textOf(encoded.body.result), 'Region: Grüße');
    for (const header of [null, 'eu-north1', '=?base64?dXMtd2VzdDE?=', '=?base64?dXMt!2VzdDE=?=']) {
      const refused = await call('test_custom_header', args, { headers: { 'mcp-param-region': header } });
      assert.equal(refused.status, 400, String(header));
      assert.equal(refused.body.error?.code, -32020, String(header));
    }
  });

  test("the request's _meta and version: missing fields are -32602, an unsupported version -32022 listing the supported ones", async () => {
    const noMeta = await rpc('server/discover', {}, { meta: null });
    assert.equal(noMeta.status, 400);
    assert.equal(noMeta.body.error?.code, -32602);
    const noCapabilities = await rpc('server/discover', { _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } }, { meta: null });
    assert.equal(noCapabilities.status, 400);
    assert.equal(noCapabilities.body.error?.code, -32602);
    const unsupported = await rpc('server/discover', {}, { headers: { 'mcp-protocol-version': 'v999' }, meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' } });
    assert.equal(unsupported.status, 400);
    assert.equal(unsupported.body.error?.code, -32022);
    assert.equal(unsupported.body.error?.data?.['requested'], 'v999');
    assert.ok((unsupported.body.error?.data?.['supported'] as string[]).includes(VERSION));
    // Capabilities Junction does not know are the agent's business, not a refusal.
    const unknownCapability = await rpc('tools/list', {}, { meta: { 'io.modelcontextprotocol/clientCapabilities': { 'x-vendor-feature': { depth: 3 } } } });
    assert.equal(unknownCapability.status, 200);
    assert.equal(unknownCapability.body.result?.['resultType'], 'complete');
  });

  test('mixing revisions and removed methods: a session id with 2026 _meta is -32020, ping and logging/setLevel 404 -32601, GET 405', async () => {
    const mixed = await rpc('tools/list', {}, { headers: { 'mcp-session-id': 'a-2025-session' } });
    assert.equal(mixed.status, 400);
    assert.equal(mixed.body.error?.code, -32020);
    assert.match(mixed.body.error?.message ?? '', /Mcp-Session-Id/);
    for (const removed of ['ping', 'logging/setLevel', 'resources/subscribe', 'initialize', 'no/such-method']) {
      const answer = await rpc(removed);
      assert.equal(answer.status, 404, removed);
      assert.equal(answer.body.error?.code, -32601, removed);
    }
    const get = await fetch(`${junction.baseUrl}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': VERSION } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });

  test("a plugin's elicitation reaches a 2026 agent as an InputRequiredResult and the retry with the answer resumes the call", async () => {
    const first = await call('test_input_required_result_elicitation');
    assert.equal(first.body.result?.['resultType'], 'input_required');
    const requests = first.body.result?.['inputRequests'] as Record<string, { method: string; params: { message: string } }>;
    const [key, question] = Object.entries(requests)[0]!;
    assert.equal(key, 'user_name', "the key the plugin asked under, the suite fixture's own");
    assert.equal(question.method, 'elicitation/create');
    assert.equal(question.params.message, 'What is your name?');
    const state = first.body.result?.['requestState'] as string;
    const answered = await call('test_input_required_result_elicitation', { inputResponses: { [key]: { action: 'accept', content: { name: 'Alice' } } }, requestState: state });
    assert.equal(answered.body.result?.['resultType'], 'complete');
    assert.equal(textOf(answered.body.result), 'Hello, Alice!');
  });

  test('two rounds, each with its own state; a replayed, tampered or foreign state is refused and leaks nothing', async () => {
    const first = await call('test_input_required_result_multi_round');
    const state1 = first.body.result?.['requestState'] as string;
    const key1 = Object.keys(first.body.result?.['inputRequests'] as object)[0]!;
    // Another agent (another client name) cannot resume this agent's call with its state.
    const foreign = await call('test_input_required_result_multi_round', { inputResponses: { [key1]: { action: 'accept', content: { name: 'Mallory' } } }, requestState: state1 }, { meta: { 'io.modelcontextprotocol/clientInfo': { name: 'other-agent', version: '1' } } });
    assert.equal(foreign.body.error?.code, -32602);
    assert.equal(foreign.body.error?.data?.['code'], 'RequestStateInvalid');
    const tampered = await call('test_input_required_result_multi_round', { inputResponses: { [key1]: { action: 'accept', content: { name: 'Mallory' } } }, requestState: `${state1}x` });
    assert.equal(tampered.body.error?.data?.['code'], 'RequestStateInvalid');

    const second = await call('test_input_required_result_multi_round', { inputResponses: { [key1]: { action: 'accept', content: { name: 'Alice' } } }, requestState: state1 });
    assert.equal(second.body.result?.['resultType'], 'input_required');
    const state2 = second.body.result?.['requestState'] as string;
    assert.notEqual(state2, state1);
    const replay = await call('test_input_required_result_multi_round', { inputResponses: { [key1]: { action: 'accept', content: { name: 'Eve' } } }, requestState: state1 });
    assert.equal(replay.body.error?.data?.['code'], 'RequestStateInvalid');
    const key2 = Object.keys(second.body.result?.['inputRequests'] as object)[0]!;
    assert.notEqual(key2, key1);
    const done = await call('test_input_required_result_multi_round', { inputResponses: { [key2]: { action: 'accept', content: { color: 'teal' } } }, requestState: state2 });
    assert.equal(textOf(done.body.result), 'Alice likes teal');
    const afterDone = await call('test_input_required_result_multi_round', { inputResponses: { [key2]: { action: 'accept', content: { color: 'red' } } }, requestState: state2 });
    assert.equal(afterDone.body.error?.data?.['code'], 'RequestStateInvalid');
  });

  test('an answer that is not a result of the question is refused, and the question stays open for a valid one', async () => {
    const first = await call('test_input_required_result_sampling');
    const key = Object.keys(first.body.result?.['inputRequests'] as object)[0]!;
    const state = first.body.result?.['requestState'] as string;
    const invalid = await call('test_input_required_result_sampling', { inputResponses: { [key]: 12345 }, requestState: state });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error?.code, -32602);
    const valid = await call('test_input_required_result_sampling', { inputResponses: { [key]: { role: 'assistant', content: { type: 'text', text: 'hi there' }, model: 'm' } }, requestState: state });
    assert.equal(textOf(valid.body.result), 'Sampled: hi there');
  });

  test('a tool whose plugin needs a capability the request does not declare is 400 MissingRequiredClientCapability (-32021)', async () => {
    const refused = await call('test_missing_capability', {}, { meta: { 'io.modelcontextprotocol/clientCapabilities': {} } });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error?.code, -32021);
    assert.deepEqual(refused.body.error?.data?.['requiredCapabilities'], { sampling: {} });
    // Declared only in part: the questions the agent can answer are asked, the others refused to the tool.
    const partial = await call('test_input_required_result_capabilities', {}, { meta: { 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } } });
    const methods = Object.values(partial.body.result?.['inputRequests'] as Record<string, { method: string }>).map((r) => r.method);
    assert.deepEqual(methods, ['sampling/createMessage']);
  });

  test('subscriptions/listen acknowledges first and carries only the asked-for list changes, tagged with its id', async () => {
    const open = async (notifications: Record<string, unknown>) => {
      const id = nextId++;
      const controller = new AbortController();
      const response = await fetch(`${junction.baseUrl}/mcp`, {
        method: 'POST',
        signal: controller.signal,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'subscriptions/listen' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications, _meta: meta() } }),
      });
      assert.equal(response.headers.get('content-type'), 'text/event-stream');
      const reader = response.body!.getReader();
      const frames: Array<{ method: string; params: { _meta: Record<string, unknown> } }> = [];
      let buffer = '';
      const pump = (async () => {
        for (;;) {
          const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (chunk.done) return;
          buffer += new TextDecoder().decode(chunk.value);
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          for (const line of lines) if (line.startsWith('data: ')) frames.push(JSON.parse(line.slice(6)) as (typeof frames)[number]);
        }
      })();
      return { id, frames, close: async () => (controller.abort(), await pump) };
    };
    const tools = await open({ toolsListChanged: true });
    const prompts = await open({ promptsListChanged: true });
    await eventually(() => tools.frames.length > 0 && prompts.frames.length > 0, 5_000, 'the acknowledgments');
    assert.equal(tools.frames[0]?.method, 'notifications/subscriptions/acknowledged');
    assert.equal(tools.frames[0]?.params._meta['io.modelcontextprotocol/subscriptionId'], tools.id);
    await call('test_trigger_tool_change');
    const changed = await eventually(() => tools.frames.find((f) => f.method === 'notifications/tools/list_changed'), 5_000, 'tools/list_changed');
    assert.equal(changed.params._meta['io.modelcontextprotocol/subscriptionId'], tools.id);
    // The catalogue just changed, so list results say so with a short freshness hint.
    assert.equal((await rpc('tools/list')).body.result?.['ttlMs'], 5_000);
    await call('test_trigger_prompt_change');
    await eventually(() => prompts.frames.some((f) => f.method === 'notifications/prompts/list_changed'), 5_000, 'prompts/list_changed');
    assert.ok(!prompts.frames.some((f) => f.method === 'notifications/tools/list_changed'), 'a prompts-only stream must not hear of tool changes');
    await tools.close();
    await prompts.close();

    // A watched resource: updates arrive tagged, and closing the stream releases the plugin's subscription.
    const subscribed: boolean[] = [];
    const off = fixture.on('subscription', ({ uri, subscribed: on }) => void (uri === 'test://watched-resource' && subscribed.push(on)));
    const watch = await open({ resourceSubscriptions: ['test://watched-resource'] });
    const updated = await eventually(() => watch.frames.find((f) => f.method === 'notifications/resources/updated'), 5_000, 'resources/updated');
    assert.equal(updated.params._meta['io.modelcontextprotocol/subscriptionId'], watch.id);
    assert.deepEqual((watch.frames[0] as unknown as { params: { notifications: unknown } }).params.notifications, { resourceSubscriptions: ['test://watched-resource'] });
    await watch.close();
    await eventually(() => subscribed.at(-1) === false, 5_000, 'the subscription released');
    off();
  });

  test('the stdio relay (`junction connect`) carries 2026-07-28 requests and their input-required rounds, each as its own POST', async () => {
    const relay = rawRelay(junction.port);
    try {
      const line = (id: number, method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta() } });
      relay.write(line(1, 'server/discover'));
      const discover = await relay.answer((a) => a['id'] === 1);
      assert.equal((discover['result'] as Record<string, unknown>)['resultType'], 'complete');
      relay.write(line(2, 'tools/call', { name: 'test_input_required_result_elicitation', arguments: {} }));
      const first = (await relay.answer((a) => a['id'] === 2))['result'] as Record<string, unknown>;
      assert.equal(first['resultType'], 'input_required');
      const key = Object.keys(first['inputRequests'] as object)[0]!;
      relay.write(line(3, 'tools/call', { name: 'test_input_required_result_elicitation', arguments: {}, inputResponses: { [key]: { action: 'accept', content: { name: 'Stdio' } } }, requestState: first['requestState'] }));
      const done = (await relay.answer((a) => a['id'] === 3))['result'] as Record<string, unknown>;
      assert.equal(textOf(done), 'Hello, Stdio!');
      relay.write(line(4, 'ping'));
      assert.equal(((await relay.answer((a) => a['id'] === 4))['error'] as { code: number }).code, -32601);
    } finally {
      const { code, stderr } = await relay.end();
      assert.equal(code, 0, stderr);
    }
  });
});
