import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ResponseErrorKind, ResponseStatus, type RequestCallTool } from '../../../../plugins/sdk/wire/index.js';
import { guardedCall, InvokeFailure, type GuardSettings, type PluginReply, type ToolInvoker } from '../../../../src-main/bridge/calls/index.js';
import type { CallContext, ToolOutcome } from '../../../../src-main/contracts/tool-source.js';
import { join, newRegistry, tool } from '../registry/fixtures.js';

/** Answers calls from a script of replies per connection; records what reached the plugin. */
class ScriptedInvoker implements ToolInvoker {
  readonly calls: Array<{ connectionId: string; request: RequestCallTool }> = [];
  constructor(private readonly answer: (connectionId: string, attempt: number) => PluginReply | Promise<PluginReply>) {}
  async invokeTool(connectionId: string, request: RequestCallTool): Promise<PluginReply> {
    this.calls.push({ connectionId, request });
    return this.answer(connectionId, this.calls.length);
  }
}

const ok: PluginReply = { status: ResponseStatus.Success, content: [{ type: 'text', text: 'done' }], errorKind: ResponseErrorKind.None, message: '' };
const reloading: PluginReply = {
  status: ResponseStatus.Error,
  content: [],
  errorKind: ResponseErrorKind.Unavailable,
  httpStatusCode: 503,
  notExecuted: true,
  message: 'Scripts are reloading.',
};

const settings: GuardSettings = { timeoutMs: 2_000, reconnectWaitMs: 1_000, resendIntervalMs: 20, now: Date.now };

function ctx(): CallContext {
  return { callId: randomUUID(), agent: 'test', transport: 'http-api', signal: new AbortController().signal };
}

function code(outcome: ToolOutcome): string | undefined {
  return (outcome.result.structuredContent as { error?: { code: string } } | undefined)?.error?.code;
}

const countSchema = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };

describe('call guard', () => {
  test('arguments are validated for 8.14+ plugins only', async () => {
    const registry = newRegistry();
    const guarded = join(registry, { role: 'editor' });
    registry.setTools(guarded.id, [tool('count', countSchema)]);
    const invoker = new ScriptedInvoker(() => ok);
    const refused = await guardedCall(registry, invoker, settings, 'count', { count: 'x' }, ctx());
    assert.equal(refused.error?.kind, 'binding');
    assert.equal(invoker.calls.length, 0);

    const legacyRegistry = newRegistry();
    const legacy = join(legacyRegistry, { mcpPluginVersion: null });
    legacyRegistry.setTools(legacy.id, [tool('count', countSchema)]);
    const forwarded = await guardedCall(legacyRegistry, invoker, settings, 'count', { count: 'x' }, ctx());
    assert.equal(forwarded.error?.kind, undefined);
    assert.equal(invoker.calls.length, 1);
  });

  test('a notExecuted answer is sent again until it succeeds, with a fresh request id', async () => {
    const registry = newRegistry();
    join(registry, { role: 'editor', tools: ['t'] });
    const invoker = new ScriptedInvoker((_id, attempt) => (attempt < 3 ? reloading : ok));
    const outcome = await guardedCall(registry, invoker, settings, 't', {}, ctx());
    assert.equal(outcome.error?.kind, undefined);
    assert.equal(invoker.calls.length, 3);
    assert.equal(new Set(invoker.calls.map((c) => c.request.requestId)).size, 3);
  });

  test('an 8.0-era plugin is never re-sent: its notExecuted answer comes back as is', async () => {
    const registry = newRegistry();
    join(registry, { mcpPluginVersion: null, tools: ['t'] });
    const invoker = new ScriptedInvoker(() => reloading);
    const outcome = await guardedCall(registry, invoker, settings, 't', {}, ctx());
    assert.equal(outcome.error?.kind, 'unavailable');
    assert.equal(code(outcome), 'PluginUnavailable');
    assert.equal(invoker.calls.length, 1);
  });

  test('when the reconnect window closes the answer is PluginReloading', async () => {
    const registry = newRegistry();
    join(registry, { role: 'editor', tools: ['t'] });
    const invoker = new ScriptedInvoker(() => reloading);
    const outcome = await guardedCall(registry, invoker, { ...settings, reconnectWaitMs: 500 }, 't', {}, ctx());
    assert.equal(outcome.error?.kind, 'unavailable');
    assert.equal(code(outcome), 'PluginReloading');
    assert.ok(invoker.calls.length >= 2);
  });

  test('a call for an awaited editor waits for it and is served by the new connection', async () => {
    const registry = newRegistry();
    const first = join(registry, { role: 'editor', tools: ['t'] });
    registry.disconnect(first.id, Date.now(), 1_000);
    const invoker = new ScriptedInvoker(() => ok);
    const pending = guardedCall(registry, invoker, settings, 't', {}, ctx());
    const second = join(registry, { role: 'editor', tools: ['t'] });
    const outcome = await pending;
    assert.equal(outcome.error?.kind, undefined);
    assert.deepEqual(invoker.calls.map((c) => c.connectionId), [second.id]);
  });

  test('a wait that outlasts the deadline is a timeout; transport failures map to their kinds', async () => {
    const registry = newRegistry();
    const first = join(registry, { role: 'editor', tools: ['t'] });
    registry.disconnect(first.id, Date.now(), 5_000);
    const timedOut = await guardedCall(registry, new ScriptedInvoker(() => ok), { ...settings, timeoutMs: 50 }, 't', {}, ctx());
    assert.equal(timedOut.error?.kind, 'timeout');
    assert.equal(code(timedOut), 'ToolTimeout');

    const live = newRegistry();
    join(live, { role: 'editor', tools: ['t'] });
    const closed = await guardedCall(live, new ScriptedInvoker(() => Promise.reject(new InvokeFailure('connectionClosed', 'gone'))), settings, 't', {}, ctx());
    assert.equal(closed.error?.kind, 'unavailable');
    const broken = await guardedCall(live, new ScriptedInvoker(() => Promise.reject(new InvokeFailure('clientError', 'handler crashed'))), settings, 't', {}, ctx());
    assert.equal(broken.error?.kind, 'internal');
    assert.match((broken.result.structuredContent as { error: { message: string } }).error.message, /^handler crashed$/);
  });

  test('an unknown tool is notFound', async () => {
    const outcome = await guardedCall(newRegistry(), new ScriptedInvoker(() => ok), settings, 'nope', {}, ctx());
    assert.equal(outcome.error?.kind, 'notFound');
    assert.equal(code(outcome), 'ToolNotFound');
  });
});
