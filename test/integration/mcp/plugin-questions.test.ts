/**
 * What a plugin on Junction's SDK may ask the agent besides elicitation and sampling in a tool: the
 * agent's roots, questions under keys of its own, and questions from a prompt handler or a resource
 * read. Against a real Junction with a real SDK plugin, real 2025-11-25 SDK agents, and raw 2026-07-28
 * requests (input-required rounds), including the bad input: keys that are not short words, two open
 * questions under one key, roots asked of an agent without the capability, forged and replayed state.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ListRootsRequestSchema, McpError, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createConformancePlugin } from '../../../plugins/examples/conformance/plugin.js';
import { AgentRequestError, createPlugin, type McpPlugin } from '../../../plugins/sdk/index.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { modernRpc, type ModernAgent } from '../../support/modern-rpc.js';

// Wide enough that no ordinary call of this file times out on a loaded two-core machine (1.5 s did once at load 7).
const TIMEOUT_MS = 4_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ROOTS = [{ uri: 'file:///work/project', name: 'project' }];
const topicSchema = { type: 'object' as const, properties: { topic: { type: 'string' } }, required: ['topic'] };

/** What an agent request ended in, as data: the answer, or the AgentRequestError's code and message. */
async function outcome(work: () => Promise<unknown>): Promise<{ ok: unknown } | { code: string; message: string }> {
  try {
    return { ok: await work() };
  } catch (error) {
    if (error instanceof AgentRequestError) return { code: error.code, message: error.message };
    throw error;
  }
}

function probePlugin(endpoint: string): McpPlugin {
  const plugin = createPlugin({ name: 'questions', version: '1.0.0', role: 'runtime', endpoint });
  plugin
    .tool({
      name: 'ask-roots',
      description: 'Asks the agent for its roots, under `key` when given',
      input: z.object({ key: z.string().optional() }),
      handler: ({ key }, ctx) => outcome(() => ctx.listRoots(key === undefined ? {} : { key })),
    })
    .tool({
      name: 'ask-keyed',
      description: 'Elicits under whatever `key` the agent passes (bad ones included)',
      input: z.object({ key: z.unknown() }),
      // The key goes to the bridge as the agent gave it: the bridge is what must refuse a bad one.
      handler: ({ key }, ctx) => outcome(() => ctx.elicit('Topic?', topicSchema, { key: key as string })),
    })
    .tool({
      name: 'ask-form',
      description: 'Elicits with the requested schema the agent passes',
      input: z.object({ schema: z.record(z.string(), z.unknown()) }),
      handler: ({ schema }, ctx) => outcome(() => ctx.elicit('Form?', schema as typeof topicSchema)),
    })
    .tool({
      name: 'ask-twice',
      description: 'Asks two questions at once under the same key',
      input: z.object({}),
      handler: async (_args, ctx) => ({ outcomes: await Promise.all([outcome(() => ctx.elicit('First?', topicSchema, { key: 'same' })), outcome(() => ctx.elicit('Second?', topicSchema, { key: 'same' }))]) }),
    })
    .prompt({
      name: 'ask-prompt',
      description: 'Asks the agent for a topic before it renders',
      handler: async (_args, ctx) => {
        const answer = await outcome(() => ctx.elicit('Which topic?', topicSchema, { key: 'topic' }));
        return 'ok' in answer ? `Write about ${String((answer.ok as { content?: { topic?: string } }).content?.topic)}` : `No topic: ${answer.code}`;
      },
    })
    .prompt({ name: 'slow-prompt', description: 'Renders after three plugin timeouts', handler: async () => (await sleep(TIMEOUT_MS * 3), 'late') })
    .resource({
      uri: 'probe://asked',
      name: 'asked',
      description: 'Asks the reader why before it answers',
      mimeType: 'text/plain',
      read: async (_uri, ctx) => {
        const answer = await ctx.elicit('Why read this?', topicSchema, { key: 'reason' });
        return `Read for ${String(answer.content?.['topic'])}`;
      },
    });
  return plugin;
}

interface SessionAgent {
  client: Client;
  elicited: string[];
}

describe('plugins ask for roots, under their own keys, and from prompts and resource reads', () => {
  let junction: TestJunction;
  let plugin: McpPlugin;
  let fixture: McpPlugin;
  let answerAfterMs = 0;
  const clients: Client[] = [];

  const session = async (name: string, capabilities: ClientCapabilities): Promise<SessionAgent> => {
    const client = new Client({ name, version: '1.0.0' }, { capabilities });
    const elicited: string[] = [];
    if (capabilities.elicitation) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        elicited.push(request.params.message);
        await sleep(answerAfterMs);
        return { action: 'accept', content: { topic: `${name}'s topic` } };
      });
    }
    if (capabilities.roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: ROOTS }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`)));
    clients.push(client);
    return { client, elicited };
  };
  const rpc = (method: string, params: Record<string, unknown>, agent?: ModernAgent) => modernRpc(`${junction.baseUrl}/mcp`, method, params, agent);
  const call = (name: string, extra: Record<string, unknown> = {}, agent?: ModernAgent) => rpc('tools/call', { name, arguments: {}, ...extra }, agent);
  const idle = () => {
    const counts = junction.bridge.extensionCounts();
    return counts.calls === 0 && counts.nested === 0;
  };

  before(async () => {
    junction = await startTestJunction([`plugin-timeout=${TIMEOUT_MS}`]);
    const endpoint = `${junction.baseUrl}/hub/mcp-server`;
    plugin = probePlugin(endpoint);
    fixture = createConformancePlugin({ endpoint });
    await Promise.all([plugin.connect(), fixture.connect()]);
    await eventually(() => {
      const names = new Set(junction.bridge.tools.listTools().map((t) => t.name));
      return names.has('ask-roots') && names.has('test_input_required_result_list_roots');
    }, 10_000, 'the probe and fixture tools');
  });
  after(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await Promise.allSettled([plugin.disconnect(), fixture.disconnect()]);
    await junction.stop();
  });

  describe('a 2025-11-25 session', () => {
    test("a plugin gets the session's roots, and the call trace shows the request; without the capability it gets CapabilityUnavailable", async () => {
      const rooted = await session('rooted', { roots: {} });
      const asked = await rooted.client.callTool({ name: 'ask-roots', arguments: {} });
      assert.deepEqual(asked.structuredContent, { ok: { roots: ROOTS } });
      const traced = junction.control.snapshotFrame().snapshot.calls.find((c) => c.tool === 'ask-roots' && c.agent.startsWith('rooted/'));
      assert.deepEqual(traced?.nested?.map((n) => [n.kind, n.status, n.outcome]), [['roots', 'ok', '1 roots']]);

      const rootless = await session('rootless', {});
      const refused = await rootless.client.callTool({ name: 'ask-roots', arguments: {} });
      assert.equal((refused.structuredContent as { code: string }).code, 'CapabilityUnavailable');
      assert.match((refused.structuredContent as { message: string }).message, /roots capability/);
      assert.ok(idle(), 'nothing left pending');
    });

    test('a key names nothing on this revision; a key that is not 1-64 letters, digits, _ . - is refused InvalidRequest before the agent is asked', async () => {
      const agent = await session('keyed', { elicitation: {} });
      const keyed = await agent.client.callTool({ name: 'ask-keyed', arguments: { key: 'k'.repeat(64) } });
      assert.deepEqual(keyed.structuredContent, { ok: { action: 'accept', content: { topic: "keyed's topic" } } });
      for (const bad of [42, 'k'.repeat(65), 'two words', '']) {
        const refused = await agent.client.callTool({ name: 'ask-keyed', arguments: { key: bad } });
        const value = refused.structuredContent as { code: string; message: string };
        assert.equal(value.code, 'InvalidRequest', `key ${JSON.stringify(bad)}`);
        assert.match(value.message, /Invalid RequestElicitation payload: key/);
      }
      assert.deepEqual(agent.elicited, ['Topic?'], 'only the good key reached the agent');
      assert.ok(idle());
    });

    test('two open questions under one key: the second is refused InvalidRequest, the first is answered', async () => {
      const agent = await session('twice', { elicitation: {} });
      const answered = await agent.client.callTool({ name: 'ask-twice', arguments: {} });
      const [first, second] = (answered.structuredContent as { outcomes: Array<Record<string, unknown>> }).outcomes;
      assert.deepEqual(first, { ok: { action: 'accept', content: { topic: "twice's topic" } } });
      assert.equal(second?.['code'], 'InvalidRequest');
      assert.match(String(second?.['message']), /'same' already names a pending request/);
      assert.deepEqual(agent.elicited, ['First?']);
    });

    test('a prompt handler and a resource read ask the session that asked for them', async () => {
      const agent = await session('reader', { elicitation: {} });
      const prompt = await agent.client.getPrompt({ name: 'ask-prompt' });
      assert.deepEqual(prompt.messages.map((m) => m.content), [{ type: 'text', text: "Write about reader's topic" }]);
      const read = await agent.client.readResource({ uri: 'probe://asked' });
      assert.equal((read.contents[0] as { text: string }).text, "Read for reader's topic");
      assert.deepEqual(agent.elicited, ['Which topic?', 'Why read this?']);

      const mute = await session('mute', {});
      const unasked = await mute.client.getPrompt({ name: 'ask-prompt' });
      assert.deepEqual(unasked.messages.map((m) => m.content), [{ type: 'text', text: 'No topic: CapabilityUnavailable' }]);
      assert.ok(idle());
    });

    test("a prompt's deadline stands still while its plugin waits for the agent, and runs otherwise", async () => {
      const agent = await session('slow-human', { elicitation: {} });
      answerAfterMs = TIMEOUT_MS + 1_000;
      try {
        const prompt = await agent.client.getPrompt({ name: 'ask-prompt' });
        assert.deepEqual(prompt.messages.map((m) => m.content), [{ type: 'text', text: "Write about slow-human's topic" }]);
      } finally {
        answerAfterMs = 0;
      }
      await assert.rejects(agent.client.getPrompt({ name: 'slow-prompt' }), (error: unknown) => error instanceof McpError && (error.data as { code?: string }).code === 'ToolTimeout');
    });
  });

  describe('2026-07-28 requests', () => {
    test("a plugin's key is the input request's key; roots are asked as roots/list and the retry's answer reaches the plugin", async () => {
      const first = await call('ask-roots', { arguments: { key: 'where' } });
      assert.equal(first.result?.['resultType'], 'input_required');
      assert.deepEqual(first.result?.['inputRequests'], { where: { method: 'roots/list', params: {} } });
      const done = await call('ask-roots', { arguments: { key: 'where' }, inputResponses: { where: { roots: ROOTS } }, requestState: first.result?.['requestState'] });
      assert.deepEqual(done.result?.['structuredContent'], { ok: { roots: ROOTS } });
      // Without a key of its own the question is named after its kind.
      const unnamed = await call('ask-roots');
      assert.deepEqual(Object.keys(unnamed.result?.['inputRequests'] as object), ['roots-1']);
      const answered = await call('ask-roots', { inputResponses: { 'roots-1': { roots: [] } }, requestState: unnamed.result?.['requestState'] });
      assert.deepEqual(answered.result?.['structuredContent'], { ok: { roots: [] } });
    });

    test('roots asked of an agent that declared none: the plugin gets CapabilityUnavailable at once, and a call that fails on it is -32021 naming roots', async () => {
      const noRoots: ModernAgent = { capabilities: { elicitation: {}, sampling: {} } };
      const probe = await call('ask-roots', {}, noRoots);
      assert.equal(probe.result?.['resultType'], 'complete');
      assert.equal((probe.result?.['structuredContent'] as { code: string }).code, 'CapabilityUnavailable');
      const fixtureCall = await call('test_input_required_result_list_roots', {}, noRoots);
      assert.equal(fixtureCall.status, 400);
      assert.equal(fixtureCall.error?.code, -32021);
      assert.deepEqual(fixtureCall.error?.data?.['requiredCapabilities'], { roots: {} });
    });

    test('several kinds in one round, each under the fixture key, all answered by one retry', async () => {
      const first = await call('test_input_required_result_multiple_inputs');
      const requests = first.result?.['inputRequests'] as Record<string, { method: string }>;
      assert.deepEqual(Object.fromEntries(Object.entries(requests).map(([key, r]) => [key, r.method])), {
        user_name: 'elicitation/create',
        greeting: 'sampling/createMessage',
        client_roots: 'roots/list',
      });
      const done = await call('test_input_required_result_multiple_inputs', {
        inputResponses: {
          user_name: { action: 'accept', content: { name: 'Ada' } },
          greeting: { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' },
          client_roots: { roots: ROOTS },
        },
        requestState: first.result?.['requestState'],
      });
      assert.equal((done.result?.['content'] as Array<{ text: string }>)[0]?.text, 'Hello, Ada (roots: file:///work/project)');
    });

    test('two open questions under one key in one round: the second is refused to the plugin, the first reaches the agent', async () => {
      const first = await call('ask-twice');
      assert.deepEqual(Object.keys(first.result?.['inputRequests'] as object), ['same']);
      const done = await call('ask-twice', { inputResponses: { same: { action: 'accept', content: { topic: 'one' } } }, requestState: first.result?.['requestState'] });
      const [answered, refused] = (done.result?.['structuredContent'] as { outcomes: Array<Record<string, unknown>> }).outcomes;
      assert.deepEqual(answered, { ok: { action: 'accept', content: { topic: 'one' } } });
      assert.equal(refused?.['code'], 'InvalidRequest');
    });

    test('a bad key is refused to the plugin, and the agent is never shown the question', async () => {
      const answer = await call('ask-keyed', { arguments: { key: 'x'.repeat(65) } });
      assert.equal(answer.result?.['resultType'], 'complete');
      assert.equal((answer.result?.['structuredContent'] as { code: string }).code, 'InvalidRequest');
    });

    test('a requested schema MCP does not allow is refused to the plugin, as on the session revisions, and never shown to the agent', async () => {
      const nested = { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } };
      const answer = await call('ask-form', { arguments: { schema: nested } });
      assert.equal(answer.result?.['resultType'], 'complete');
      const value = answer.result?.['structuredContent'] as { code: string; message: string };
      assert.equal(value.code, 'InvalidRequest');
      assert.match(value.message, /not allowed by the MCP specification/);
      const flat = await call('ask-form', { arguments: { schema: topicSchema } });
      assert.deepEqual(flat.result?.['inputRequests'], { 'elicitation-1': { method: 'elicitation/create', params: { mode: 'form', message: 'Form?', requestedSchema: topicSchema } } });
      await call('ask-form', { arguments: { schema: topicSchema }, inputResponses: { 'elicitation-1': { action: 'decline' } }, requestState: flat.result?.['requestState'] });
    });

    test('prompts/get and resources/read need input in rounds; a forged, replayed, foreign or other request state is refused', async () => {
      const first = await rpc('prompts/get', { name: 'ask-prompt' });
      assert.equal(first.result?.['resultType'], 'input_required');
      assert.deepEqual(Object.keys(first.result?.['inputRequests'] as object), ['topic']);
      const state = first.result?.['requestState'] as string;
      const answer = { topic: { action: 'accept', content: { topic: 'tides' } } };
      const refusedWith = (response: Awaited<ReturnType<typeof rpc>>) => [response.status, response.error?.code, response.error?.data?.['code']];
      assert.deepEqual(refusedWith(await rpc('prompts/get', { name: 'ask-prompt', inputResponses: answer, requestState: `${state}x` })), [400, -32602, 'RequestStateInvalid']);
      assert.deepEqual(refusedWith(await rpc('prompts/get', { name: 'ask-prompt', inputResponses: answer, requestState: state }, { name: 'other-agent' })), [400, -32602, 'RequestStateInvalid']);
      // A prompt's state resumes that prompt only, not a tool of another request.
      assert.deepEqual(refusedWith(await call('ask-prompt', { inputResponses: answer, requestState: state })), [400, -32602, 'RequestStateInvalid']);
      const done = await rpc('prompts/get', { name: 'ask-prompt', inputResponses: answer, requestState: state });
      assert.equal(done.result?.['resultType'], 'complete');
      assert.deepEqual(done.result?.['messages'], [{ role: 'user', content: { type: 'text', text: 'Write about tides' } }]);
      assert.deepEqual(refusedWith(await rpc('prompts/get', { name: 'ask-prompt', inputResponses: answer, requestState: state })), [400, -32602, 'RequestStateInvalid'], 'replayed');

      const read = await rpc('resources/read', { uri: 'probe://asked' });
      assert.deepEqual(Object.keys(read.result?.['inputRequests'] as object), ['reason']);
      const readDone = await rpc('resources/read', { uri: 'probe://asked', inputResponses: { reason: { action: 'accept', content: { topic: 'audit' } } }, requestState: read.result?.['requestState'] });
      assert.equal((readDone.result?.['contents'] as Array<{ text: string }>)[0]?.text, 'Read for audit');
      assert.equal(readDone.result?.['ttlMs'], 0);
      await eventually(idle, 5_000, 'nothing left pending');
    });

    test('answers a first request carries ahead answer its first turn by key; invalid ones are asked again; later turns are asked', async () => {
      const ahead = await call('test_input_required_result_elicitation', { inputResponses: { user_name: { action: 'accept', content: { name: 'Bob' } }, unrelated: { action: 'accept' } } });
      assert.equal(ahead.result?.['resultType'], 'complete');
      assert.equal((ahead.result?.['content'] as Array<{ text: string }>)[0]?.text, 'Hello, Bob!');
      const invalid = await call('test_input_required_result_elicitation', { inputResponses: { user_name: 12345 } });
      assert.deepEqual(Object.keys(invalid.result?.['inputRequests'] as object), ['user_name']);
      const notAnObject = await call('test_input_required_result_elicitation', { inputResponses: 'user_name' });
      assert.deepEqual([notAnObject.status, notAnObject.error?.code], [400, -32602]);

      // step2 sent ahead does not answer a question asked after the first round trip.
      const first = await call('test_input_required_result_multi_round', { inputResponses: { step2: { action: 'accept', content: { color: 'red' } } } });
      assert.deepEqual(Object.keys(first.result?.['inputRequests'] as object), ['step1']);
      const second = await call('test_input_required_result_multi_round', { inputResponses: { step1: { action: 'accept', content: { name: 'Cy' } } }, requestState: first.result?.['requestState'] });
      assert.deepEqual(Object.keys(second.result?.['inputRequests'] as object), ['step2']);
      const done = await call('test_input_required_result_multi_round', { inputResponses: { step2: { action: 'accept', content: { color: 'blue' } } }, requestState: second.result?.['requestState'] });
      assert.equal((done.result?.['content'] as Array<{ text: string }>)[0]?.text, 'Cy likes blue');
    });
  });
});
