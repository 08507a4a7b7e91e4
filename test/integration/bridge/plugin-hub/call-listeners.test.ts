/**
 * Nothing a bridged call registers outlives it: after many sequential and concurrent calls (answered,
 * timed out, aborted, and waiting for a plugin that comes back) the caller's signal, the registry's
 * events and the shared deadlines are back at their baseline, and the process saw no
 * MaxListenersExceededWarning. Real hub, real SDK plugin.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { z } from 'zod';
import { createPlugin, type McpPlugin } from '../../../../plugins/sdk/index.js';
import { ServerToPlugin } from '../../../../plugins/sdk/wire/index.js';
import { callDeadlines } from '../../../../src-main/shared/deadlines.js';
import type { ToolOutcome } from '../../../../src-main/contracts/tool-source.js';
import { eventually, startTestJunction } from '../../../support/junction-harness.js';
import { callContext, startBridge, toolNames, until, type TestBridge } from './harness.js';

const CONCURRENT = 64;

function assertOk(outcome: ToolOutcome): void {
  assert.equal(outcome.error?.kind, undefined, JSON.stringify(outcome.result));
}

function errorCode(outcome: ToolOutcome): string | undefined {
  return (outcome.result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
}

describe('bridged calls leave no listeners or timers behind', () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  let bridge: TestBridge;
  let plugin: McpPlugin;

  before(async () => {
    process.on('warning', onWarning);
    bridge = await startBridge({ pluginTimeoutMs: 300, pluginReconnectWaitSeconds: 5 });
    plugin = createPlugin({ name: 'listeners', version: '1.0.0', role: 'editor', endpoint: bridge.endpoint, reconnectDelaysMs: [20] });
    plugin.tool({ name: 'echo', description: 'Echoes its text.', input: z.object({ text: z.string() }), handler: (args) => args });
    plugin.tool({
      name: 'hang',
      description: 'Answers only when cancelled.',
      input: z.object({}),
      handler: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ cancelled: true }), { once: true })),
    });
    await plugin.connect();
    await until(bridge.bridge, () => toolNames(bridge.bridge).includes('hang'), 'tools');
  });

  after(async () => {
    process.off('warning', onWarning);
    await plugin.disconnect();
    await until(bridge.bridge, () => bridge.hub.connections().length === 0, 'the hub to see the plugin leave');
    await bridge.close();
  });

  const readyListeners = () => bridge.bridge.waitingCalls();

  test('answered, timed-out, aborted and waiting calls, one after another and 64 at once', async () => {
    const session = new AbortController();
    const baseline = { deadlines: callDeadlines.size, ready: readyListeners() };
    assert.equal(getEventListeners(session.signal, 'abort').length, 0);

    // A long-lived signal (an agent session's) across many sequential calls must not collect listeners:
    // it carries at most the one that every call's abort callback shares (shared/abort-watch.ts).
    for (let i = 0; i < 200; i++) assertOk(await bridge.bridge.tools.callTool('echo', { text: `s${i}` }, callContext({ signal: session.signal })));
    assert.ok(getEventListeners(session.signal, 'abort').length <= 1);

    for (let round = 0; round < 3; round++) {
      const outcomes = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => bridge.bridge.tools.callTool('echo', { text: `c${round}:${i}` }, callContext())));
      outcomes.forEach(assertOk);
    }

    const timedOut = await Promise.all(Array.from({ length: CONCURRENT }, () => bridge.bridge.tools.callTool('hang', {}, callContext())));
    assert.deepEqual(new Set(timedOut.map(errorCode)), new Set(['ToolTimeout']));

    const aborts = Array.from({ length: CONCURRENT }, () => new AbortController());
    const aborted = Promise.all(aborts.map((a) => bridge.bridge.tools.callTool('hang', {}, callContext({ signal: a.signal }))));
    setTimeout(() => aborts.forEach((a) => a.abort()), 20);
    assert.deepEqual(new Set((await aborted).map(errorCode)), new Set(['PluginUnavailable']));
    for (const a of aborts) assert.equal(getEventListeners(a.signal, 'abort').length, 0);

    // Calls routed while the plugin is away wait for it, then run once it is back.
    await plugin.disconnect();
    await until(bridge.bridge, () => bridge.hub.connections().length === 0, 'the hub to see the plugin leave');
    const waiting = Promise.all(Array.from({ length: 16 }, (_, i) => bridge.bridge.tools.callTool('echo', { text: `w${i}` }, callContext({ signal: session.signal }))));
    await new Promise((r) => setTimeout(r, 20));
    await plugin.connect();
    (await waiting).forEach(assertOk);
    assert.ok(getEventListeners(session.signal, 'abort').length <= 1);

    // Warnings are emitted on a later tick.
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
      [],
    );
    assert.equal(readyListeners(), baseline.ready);
    assert.equal(callDeadlines.size, baseline.deadlines);
    assert.deepEqual(bridge.bridge.extensionCounts(), { calls: 0, nested: 0, subscribedResources: 0 });
  });
});

describe('what a bridged call waits on', () => {
  test("the invocation waits on the caller's own signal, not on a signal made per call", async () => {
    // Making an AbortController per call to merge the caller's signal with the deadline, and watching
    // it, cost several percent of a call's CPU; the deadline is registered with the wait instead.
    const bridge = await startBridge({ pluginTimeoutMs: 300 });
    const plugin = createPlugin({ name: 'signals', version: '1.0.0', role: 'editor', endpoint: bridge.endpoint });
    plugin.tool({ name: 'echo', description: 'Echoes its text.', input: z.object({ text: z.string() }), handler: (args) => args });
    plugin.tool({ name: 'hang', description: 'Never answers.', input: z.object({}), handler: () => new Promise(() => undefined) });
    try {
      await plugin.connect();
      await until(bridge.bridge, () => toolNames(bridge.bridge).includes('hang'), 'tools');
      const [connection] = bridge.hub.connections();
      assert.ok(connection);
      const waitedOn: Array<AbortSignal | undefined> = [];
      const invoke = connection.invoke.bind(connection);
      connection.invoke = (method, args, options) => {
        if (method === ServerToPlugin.RunCallTool) waitedOn.push(options?.signal);
        return invoke(method, args, options);
      };
      const session = new AbortController();
      const deadlines = callDeadlines.size;
      for (let i = 0; i < 3; i++) assertOk(await bridge.bridge.tools.callTool('echo', { text: `s${i}` }, callContext({ signal: session.signal })));
      assert.deepEqual(waitedOn, [session.signal, session.signal, session.signal]);
      // The deadline still ends the wait, and the plugin hears the cancel.
      assert.equal(errorCode(await bridge.bridge.tools.callTool('hang', {}, callContext({ signal: session.signal }))), 'ToolTimeout');
      assert.equal(callDeadlines.size, deadlines);
    } finally {
      await plugin.disconnect();
      await bridge.close();
    }
  });
});

describe('through all of Junction', () => {
  test('64 concurrent calls over /mcp (one SDK session) and over /api (kept-alive sockets) raise no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const junction = await startTestJunction(['rate-limit=1000000', 'rate-limit-burst=1000000']);
    const plugin = createPlugin({ name: 'listeners', version: '1.0.0', role: 'editor', endpoint: `${junction.baseUrl}/hub/mcp-server` });
    plugin.tool({ name: 'echo', description: 'Echoes its text.', input: z.object({ text: z.string() }), handler: (args) => args });
    try {
      await plugin.connect();
      const agent = await junction.connectAgent();
      await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'echo'), 10_000, 'the echo tool');
      for (let round = 0; round < 3; round++) {
        const viaMcp = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => agent.callTool({ name: 'echo', arguments: { text: `m${round}:${i}` } })));
        assert.deepEqual(
          viaMcp.map((r) => (r.structuredContent as { text?: string }).text),
          Array.from({ length: CONCURRENT }, (_, i) => `m${round}:${i}`),
        );
        const viaApi = await Promise.all(
          Array.from({ length: CONCURRENT }, (_, i) =>
            fetch(`${junction.baseUrl}/api/tools/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: `a${round}:${i}` }) }).then((r) => r.status),
          ),
        );
        assert.deepEqual(new Set(viaApi), new Set([200]));
      }
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
        [],
      );
      assert.deepEqual(junction.bridge.extensionCounts(), { calls: 0, nested: 0, subscribedResources: 0 });
    } finally {
      process.off('warning', onWarning);
      await plugin.disconnect();
      await junction.stop();
    }
  });
});
