/**
 * MCP through the bridge: real SDK agents (with and without elicitation/sampling, over HTTP and
 * stdio), the real conformance fixture plugin and a probe plugin on a real Junction.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
  type ClientCapabilities,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createConformancePlugin } from '../../../plugins/examples/conformance/plugin.js';
import { AgentRequestError, createPlugin, type McpPlugin, type ToolContext } from '../../../plugins/sdk/index.js';
import { CLI_SOURCE_FOR_TESTS } from '../../support/cli.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

interface AgentOptions {
  capabilities?: ClientCapabilities;
  onElicit?: (message: string, signal: AbortSignal) => Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> }>;
}

function buildAgent(name: string, options: AgentOptions = {}) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  const elicited: string[] = [];
  const sampled: string[] = [];
  const logs: LoggingMessageNotification['params'][] = [];
  const updated: string[] = [];
  if (options.capabilities?.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      elicited.push(request.params.message);
      return options.onElicit ? options.onElicit(request.params.message, extra.signal) : { action: 'accept', content: { response: `${name} says yes` } };
    });
  }
  if (options.capabilities?.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const last = request.params.messages.at(-1)?.content;
      sampled.push(last && 'text' in last ? String(last.text) : '');
      return { role: 'assistant', content: { type: 'text', text: `${name} model answer` }, model: 'test-model' };
    });
  }
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  return { client, elicited, sampled, logs, updated };
}

type Agent = ReturnType<typeof buildAgent>;

const textOf = (result: unknown) => (((result as { content?: unknown }).content as Array<{ text?: string }> | undefined) ?? []).map((c) => c.text ?? '').join('');

/** A plugin whose tools report the outcome of their agent requests as data, including failure codes. */
function probePlugin(endpoint: string): { plugin: McpPlugin; kept: () => ToolContext | undefined; aborted: () => void } {
  const plugin = createPlugin({ name: 'probe', version: '1.0.0', role: 'runtime', endpoint });
  let kept: ToolContext | undefined;
  const probe = { plugin, kept: () => kept, aborted: () => undefined as void };
  const outcome = async (work: () => Promise<unknown>) => {
    try {
      return { ok: await work() };
    } catch (error) {
      if (error instanceof AgentRequestError) return { code: error.code, message: error.message };
      throw error;
    }
  };
  plugin
    .tool({
      name: 'probe-elicit',
      description: 'Elicits with the given schema and reports the outcome',
      input: z.object({ message: z.string(), schema: z.record(z.string(), z.unknown()).optional(), withdrawAfterMs: z.number().optional() }),
      handler: ({ message, schema, withdrawAfterMs }, ctx) => {
        ctx.signal.addEventListener('abort', () => probe.aborted(), { once: true });
        const requestedSchema = (schema as { type: 'object' } | undefined) ?? { type: 'object', properties: { response: { type: 'string' } } };
        const own = withdrawAfterMs === undefined ? undefined : AbortSignal.timeout(withdrawAfterMs);
        return outcome(() => ctx.elicit(message, requestedSchema, own ? { signal: own } : {}));
      },
    })
    .tool({
      name: 'probe-sample',
      description: 'Samples and reports the outcome',
      input: z.object({ prompt: z.string() }),
      handler: ({ prompt }, ctx) => outcome(() => ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 10 })),
    })
    .tool({
      name: 'probe-log',
      description: 'Logs one line per level',
      input: z.object({}),
      handler: (_args, ctx) => {
        for (const level of ['debug', 'info', 'warning', 'error'] as const) ctx.log(level, `${level} line`, { logger: 'probe', data: { level } });
        return 'logged';
      },
    })
    .tool({
      name: 'probe-keep',
      description: 'Keeps its context after returning',
      input: z.object({}),
      handler: (_args, ctx) => {
        kept = ctx;
        return 'kept';
      },
    });
  return probe;
}

describe('MCP through the bridge: elicitation, sampling, logging, completion, subscriptions', () => {
  let junction: TestJunction;
  let fixture: McpPlugin;
  let probe: ReturnType<typeof probePlugin>;
  const agents: Client[] = [];

  const connect = async (name: string, options: AgentOptions = {}): Promise<Agent> => {
    const agent = buildAgent(name, options);
    await agent.client.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`)));
    agents.push(agent.client);
    return agent;
  };
  const capable = (name: string, onElicit?: AgentOptions['onElicit']) =>
    connect(name, { capabilities: { elicitation: {}, sampling: {} }, ...(onElicit ? { onElicit } : {}) });

  before(async () => {
    junction = await startTestJunction();
    const endpoint = `${junction.baseUrl}/hub/mcp-server`;
    fixture = createConformancePlugin({ endpoint, watchIntervalMs: 50 });
    probe = probePlugin(endpoint);
    await Promise.all([fixture.connect(), probe.plugin.connect()]);
    await eventually(() => {
      const names = new Set(junction.bridge.tools.listTools().map((t) => t.name));
      return names.has('test_elicitation') && names.has('probe-keep');
    }, 10_000, 'fixture and probe tools');
  });
  after(async () => {
    await Promise.allSettled(agents.map((a) => a.close()));
    await Promise.allSettled([fixture.disconnect(), probe.plugin.disconnect()]);
    await junction.stop();
  });

  test('the server declares logging, completions and resource subscriptions', async () => {
    const agent = await connect('caps');
    const capabilities = agent.client.getServerCapabilities();
    assert.deepEqual(capabilities?.logging, {});
    assert.deepEqual(capabilities?.completions, {});
    assert.equal(capabilities?.resources?.subscribe, true);
  });

  test('elicitation and sampling reach only the agent that made the call, and the answers reach the plugin', async () => {
    const [asker, bystander] = await Promise.all([capable('asker'), capable('bystander')]);
    const elicited = await asker.client.callTool({ name: 'test_elicitation', arguments: { message: 'Continue?' } });
    assert.equal(textOf(elicited), 'User response: action=accept, content={"response":"asker says yes"}');
    const sampled = await asker.client.callTool({ name: 'test_sampling', arguments: { prompt: 'Say hi' } });
    assert.equal(textOf(sampled), 'LLM response: asker model answer');
    assert.deepEqual(asker.elicited, ['Continue?']);
    assert.deepEqual(asker.sampled, ['Say hi']);
    assert.deepEqual([bystander.elicited, bystander.sampled], [[], []], 'another session is never asked');

    const declined = await capable('decliner', async () => ({ action: 'decline' }));
    const answer = await declined.client.callTool({ name: 'probe-elicit', arguments: { message: 'Delete?' } });
    assert.deepEqual(answer.structuredContent, { ok: { action: 'decline' } });
  });

  test('an agent without the capability makes the plugin get CapabilityUnavailable', async () => {
    const plain = await connect('plain');
    const elicit = await plain.client.callTool({ name: 'probe-elicit', arguments: { message: 'Anyone?' } });
    assert.equal((elicit.structuredContent as { code: string }).code, 'CapabilityUnavailable');
    const sample = await plain.client.callTool({ name: 'probe-sample', arguments: { prompt: 'x' } });
    assert.equal((sample.structuredContent as { code: string }).code, 'CapabilityUnavailable');
  });

  test('a requested schema the specification does not allow is refused with InvalidRequest, and the agent is not asked', async () => {
    const asker = await capable('strict');
    const nested = { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } };
    const refused = await asker.client.callTool({ name: 'probe-elicit', arguments: { message: 'Where?', schema: nested } });
    assert.equal((refused.structuredContent as { code: string }).code, 'InvalidRequest');
    assert.deepEqual(asker.elicited, []);
  });

  test('a request for a call that already ended fails with CallNotActive and leaves nothing pending', async () => {
    const asker = await capable('late');
    await asker.client.callTool({ name: 'probe-keep', arguments: {} });
    const ctx = probe.kept();
    assert.ok(ctx);
    await assert.rejects(ctx.elicit('Too late?', { type: 'object', properties: {} }), (error: unknown) => error instanceof AgentRequestError && error.code === 'CallNotActive');
    assert.deepEqual(asker.elicited, []);
    assert.deepEqual(junction.bridge.extensionCounts(), { calls: 0, nested: 0, subscribedResources: 0 });
  });

  test('an agent that disconnects while asked ends the request with a structured error; other sessions go on', async () => {
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    const leaver = await capable('leaver', () => {
      asked();
      return new Promise(() => undefined);
    });
    const transport = leaver.client.transport as StreamableHTTPClientTransport;
    const pending = leaver.client.callTool({ name: 'probe-elicit', arguments: { message: 'Still there?' } }).catch((error: unknown) => error);
    await wasAsked;
    assert.equal(junction.bridge.extensionCounts().nested, 1);
    await transport.terminateSession();
    await leaver.client.close();
    await pending;
    await eventually(() => {
      const counts = junction.bridge.extensionCounts();
      return counts.calls === 0 && counts.nested === 0;
    }, 10_000, 'the call and its elicitation to be released');
    const other = await capable('stayer');
    const answer = await other.client.callTool({ name: 'probe-elicit', arguments: { message: 'Fine?' } });
    assert.deepEqual(answer.structuredContent, { ok: { action: 'accept', content: { response: 'stayer says yes' } } });
  });

  test('cancellation both ways: a plugin withdrawing its elicitation cancels it at the agent; an agent cancelling its call cancels the tool', async () => {
    let asked!: (signal: AbortSignal) => void;
    let wasAsked = new Promise<AbortSignal>((resolve) => (asked = resolve));
    const agent = await capable('canceller', async (message, signal) => {
      if (message === 'Warm-up') return { action: 'decline' };
      asked(signal);
      return new Promise(() => undefined);
    });
    // The SDK client ignores notifications/cancelled for request id 0 (a falsy-id check), so the request under test is not the session's first.
    await agent.client.callTool({ name: 'probe-elicit', arguments: { message: 'Warm-up' } });
    const withdrawn = await agent.client.callTool({ name: 'probe-elicit', arguments: { message: 'Withdrawn', withdrawAfterMs: 100 } });
    assert.equal((withdrawn.structuredContent as { code: string }).code, 'AgentRequestFailed');
    const withdrawnSignal = await wasAsked;
    await eventually(() => withdrawnSignal.aborted, 5_000, 'notifications/cancelled for the withdrawn elicitation at the agent');

    wasAsked = new Promise<AbortSignal>((resolve) => (asked = resolve));
    const toolAborted = new Promise<void>((resolve) => (probe.aborted = resolve));
    const abort = new AbortController();
    const call = agent.client.callTool({ name: 'probe-elicit', arguments: { message: 'Cancel me' } }, undefined, { signal: abort.signal }).catch((e: unknown) => e);
    await wasAsked;
    abort.abort();
    assert.ok((await call) instanceof Error, 'the agent sees its own cancellation');
    await toolAborted;
    await eventually(() => {
      const counts = junction.bridge.extensionCounts();
      return counts.calls === 0 && counts.nested === 0;
    }, 5_000, 'nothing left pending');
  });

  test('plugin log lines of a call reach its agent as notifications/message at or above the session level', async () => {
    const [quiet, chatty] = await Promise.all([connect('quiet'), connect('chatty')]);
    await quiet.client.setLoggingLevel('warning');
    await chatty.client.setLoggingLevel('debug');
    await quiet.client.callTool({ name: 'probe-log', arguments: {} });
    await chatty.client.callTool({ name: 'probe-log', arguments: {} });
    await eventually(() => chatty.logs.length === 4, 5_000, 'four log lines for the debug session');
    assert.deepEqual(quiet.logs.map((l) => l.level), ['warning', 'error']);
    assert.deepEqual(quiet.logs[0], { level: 'warning', logger: 'probe', data: { level: 'warning' } });
    assert.deepEqual(chatty.logs.map((l) => l.level), ['debug', 'info', 'warning', 'error']);
  });

  test('completion is routed to the plugin that owns the prompt; unknown references are InvalidParams with a code', async () => {
    const agent = await connect('completer');
    const completed = await agent.client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'pa' } });
    assert.deepEqual(completed.completion, { values: ['paris', 'park', 'party'], total: 3, hasMore: false });
    const template = await agent.client.complete({ ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: 'te' } });
    assert.deepEqual(template.completion.values, ['test', 'testing', 'tested']);
    await assert.rejects(
      agent.client.complete({ ref: { type: 'ref/prompt', name: 'no-such-prompt' }, argument: { name: 'a', value: '' } }),
      (error: unknown) => error instanceof McpError && error.code === -32602 && (error.data as { code?: string }).code === 'CompletionRefNotFound',
    );
  });

  test('resource subscriptions: updates reach subscribers only, stop after unsubscribe, and are bounded per session', async () => {
    const [watcher, other] = await Promise.all([connect('watcher'), connect('other')]);
    const seen = new Promise<{ uri: string; subscribed: boolean }>((resolve) => {
      const off = fixture.on('subscription', (event) => {
        off();
        resolve(event);
      });
    });
    await watcher.client.subscribeResource({ uri: 'test://watched-resource' });
    assert.deepEqual(await seen, { uri: 'test://watched-resource', subscribed: true });
    await eventually(() => watcher.updated.length >= 2, 5_000, 'resource updates');
    assert.ok(watcher.updated.every((uri) => uri === 'test://watched-resource'));
    assert.deepEqual(other.updated, [], 'an unsubscribed session hears nothing');

    await watcher.client.unsubscribeResource({ uri: 'test://watched-resource' });
    await eventually(() => junction.bridge.extensionCounts().subscribedResources === 0, 5_000, 'the subscription to be released');

    await assert.rejects(
      other.client.subscribeResource({ uri: 'test://nothing-here' }),
      (error: unknown) => error instanceof McpError && (error.data as { code?: string }).code === 'ResourceNotFound',
    );
    for (let i = 0; i < 100; i++) await other.client.subscribeResource({ uri: `test://template/${i}/data` });
    await assert.rejects(
      other.client.subscribeResource({ uri: 'test://template/100/data' }),
      (error: unknown) => error instanceof McpError && (error.data as { code?: string }).code === 'SubscriptionLimit',
    );
    assert.equal(junction.mcpFactory.subscriptionCount(), 100);
    const third = await connect('third');
    await third.client.subscribeResource({ uri: 'test://template/0/data' });
    assert.equal(junction.mcpFactory.subscriptionCount(), 101, 'the limit is per session');
    // An HTTP session ends when the agent deletes it (or at the idle timeout), not when a client object closes.
    for (const agent of [other, third]) await (agent.client.transport as StreamableHTTPClientTransport).terminateSession();
    await eventually(() => junction.mcpFactory.subscriptionCount() === 0 && junction.bridge.extensionCounts().subscribedResources === 0, 5_000, 'subscriptions released with their sessions');
  });

  test('a subscription outlives a plugin restart: the plugin that comes back is told and its updates reach the agent', async () => {
    const watcher = await connect('restart-watcher');
    await watcher.client.subscribeResource({ uri: 'test://watched-resource' });
    await eventually(() => watcher.updated.length >= 1, 5_000, 'updates from the first plugin');
    await fixture.disconnect();
    const endpoint = `${junction.baseUrl}/hub/mcp-server`;
    fixture = createConformancePlugin({ endpoint, watchIntervalMs: 50 });
    const told: Array<{ uri: string; subscribed: boolean }> = [];
    fixture.on('subscription', (event) => void told.push(event));
    await fixture.connect();
    await eventually(() => told.length > 0, 5_000, 'the new connection to hear of the standing subscription');
    assert.deepEqual(told, [{ uri: 'test://watched-resource', subscribed: true }]);
    const before = watcher.updated.length;
    await eventually(() => watcher.updated.length >= before + 2, 5_000, 'updates from the plugin that came back');
    await watcher.client.unsubscribeResource({ uri: 'test://watched-resource' });
    await eventually(() => junction.bridge.extensionCounts().subscribedResources === 0, 5_000, 'the subscription to be released');
  });

  test('the operator answers elicitations in the console when so configured; answers must satisfy the schema', async () => {
    const control = junction.control;
    const switched = await control.execute('setElicitationAnswerer', { answerer: 'console' });
    assert.deepEqual(switched, { ok: true, value: { answerer: 'console', pending: [], sampling: [] } });
    try {
      const asker = await capable('console-routed');
      const schema = { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] };
      const call = asker.client.callTool({ name: 'probe-elicit', arguments: { message: 'Name it', schema } });
      const pending = await eventually(() => junction.control.snapshotFrame().snapshot.elicitations?.pending[0], 5_000, 'the pending elicitation in the console');
      assert.equal(pending.message, 'Name it');
      assert.equal(pending.tool, 'probe-elicit');
      const call0 = junction.control.snapshotFrame().snapshot.calls.find((c) => c.callId === pending.callId);
      assert.equal(call0?.nested?.[0]?.status, 'pending', 'the call trace shows the nested request under its call');

      const invalid = await control.execute('answerElicitation', { elicitationId: pending.elicitationId, action: 'accept', content: { name: 'x' } });
      assert.equal(invalid.ok, false);
      assert.equal(!invalid.ok && invalid.error.code, 'ValidationFailed');
      const answered = await control.execute('answerElicitation', { elicitationId: pending.elicitationId, action: 'accept', content: { name: 'Cube' } });
      assert.deepEqual(answered, { ok: true, value: { answerer: 'console', pending: [], sampling: [] } });
      assert.deepEqual((await call).structuredContent, { ok: { action: 'accept', content: { name: 'Cube' } } });
      assert.deepEqual(asker.elicited, [], 'the agent was not asked');
      const traced = junction.control.snapshotFrame().snapshot.calls.find((c) => c.callId === pending.callId);
      assert.equal(traced?.nested?.length, 1);
      assert.equal(traced?.nested?.[0]?.status, 'ok');
      assert.equal(traced?.nested?.[0]?.outcome, 'accept');

      const again = await control.execute('answerElicitation', { elicitationId: pending.elicitationId, action: 'decline' });
      assert.equal(!again.ok && again.error.code, 'ResourceNotFound', 'an answered elicitation cannot be answered twice');

      // A call that ends (the agent cancels it) takes its pending elicitation with it.
      const plain = await connect('console-plain');
      const abort = new AbortController();
      const cancelled = plain.client.callTool({ name: 'probe-elicit', arguments: { message: 'Never answered' } }, undefined, { signal: abort.signal }).catch((e: unknown) => e);
      await eventually(() => junction.control.snapshotFrame().snapshot.elicitations?.pending.length === 1, 5_000, 'the second pending elicitation');
      abort.abort();
      await cancelled;
      await eventually(() => junction.control.snapshotFrame().snapshot.elicitations?.pending.length === 0, 5_000, 'the elicitation to end with its call');
      await eventually(() => junction.bridge.extensionCounts().calls === 0, 5_000, 'the call to end');

      // Sampling goes to the operator too: the messages and parameters as the tool sent them, the reply as the model's.
      const sampling = asker.client.callTool({ name: 'probe-sample', arguments: { prompt: 'Summarise the scene' } });
      const request = await eventually(() => junction.control.snapshotFrame().snapshot.elicitations?.sampling[0], 5_000, 'the pending sampling request in the console');
      assert.deepEqual([request.tool, request.maxTokens, request.messages], ['probe-sample', 10, [{ role: 'user', content: { type: 'text', text: 'Summarise the scene' } }]]);
      const empty = await control.execute('answerSampling', { samplingId: request.samplingId, action: 'accept', text: ' ' });
      assert.equal(!empty.ok && empty.error.code, 'InvalidArguments', 'a reply needs its text');
      const replied = await control.execute('answerSampling', { samplingId: request.samplingId, action: 'accept', text: 'Three cubes.', model: 'operator-1' });
      assert.deepEqual(replied, { ok: true, value: { answerer: 'console', pending: [], sampling: [] } });
      assert.deepEqual((await sampling).structuredContent, { ok: { role: 'assistant', content: { type: 'text', text: 'Three cubes.' }, model: 'operator-1', stopReason: 'endTurn' } });
      assert.deepEqual(asker.sampled, [], 'the agent was not asked');
      const refused = asker.client.callTool({ name: 'probe-sample', arguments: { prompt: 'Again' } });
      const second = await eventually(() => junction.control.snapshotFrame().snapshot.elicitations?.sampling[0], 5_000, 'the second sampling request');
      await control.execute('answerSampling', { samplingId: second.samplingId, action: 'decline' });
      assert.equal(((await refused).structuredContent as { code: string }).code, 'AgentRequestFailed');
    } finally {
      await control.execute('setElicitationAnswerer', { answerer: 'agent' });
    }
  });

  test('over stdio through `junction connect`: elicitation and sampling reach the stdio agent', async () => {
    const agent = buildAgent('stdio-agent', { capabilities: { elicitation: {}, sampling: {} } });
    await agent.client.connect(
      new StdioClientTransport({ command: process.execPath, args: [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(junction.port), 'log-level=error'], stderr: 'pipe' }),
    );
    try {
      const elicited = await agent.client.callTool({ name: 'test_elicitation', arguments: { message: 'Over stdio?' } });
      assert.equal(textOf(elicited), 'User response: action=accept, content={"response":"stdio-agent says yes"}');
      const sampled = await agent.client.callTool({ name: 'test_sampling', arguments: { prompt: 'stdio prompt' } });
      assert.equal(textOf(sampled), 'LLM response: stdio-agent model answer');
      await agent.client.setLoggingLevel('error');
      await agent.client.callTool({ name: 'probe-log', arguments: {} });
      await eventually(() => agent.logs.length === 1, 5_000, 'the error line over stdio');
      assert.equal(agent.logs[0]?.level, 'error');
    } finally {
      await agent.client.close();
    }
  });
});
