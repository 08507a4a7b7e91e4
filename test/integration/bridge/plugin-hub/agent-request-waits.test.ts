/**
 * Issue 23.11, bridge parts, against a real Junction, real MCP SDK agents and real SDK plugins:
 * the human's wait for an elicitation does not count against plugin-timeout (the whole-call deadline
 * stands still while the request is pending, and runs on after it), and a plugin that floods agent
 * requests gets AgentRequestError with code TooManyRequests, never a plain Error, whether the bound
 * it hits is its connection's or the console's.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AgentRequestError, createPlugin, type McpPlugin } from '../../../../plugins/sdk/index.js';
import type { AgentRequests } from '../../../../src-main/contracts/tool-source.js';
import { eventually, startTestJunction, type TestJunction } from '../../../support/junction-harness.js';
import { callContext, startBridge, toolNames, until } from './harness.js';

const TIMEOUT_MS = 1_500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const schema = { type: 'object' as const, properties: { ok: { type: 'boolean' } } };

/** What each of a tool's agent requests ended in: the answer, or the error's class and code. */
async function settle(requests: Array<Promise<unknown>>, withinMs: number): Promise<string[]> {
  const outcomes = requests.map((r) =>
    r.then(
      () => 'answered',
      (error: unknown) => (error instanceof AgentRequestError ? `AgentRequestError:${error.code}` : `${(error as Error).constructor.name}:${(error as Error).message}`),
    ),
  );
  const pending = Symbol('pending');
  await sleep(withinMs);
  return Promise.all(outcomes.map((o) => Promise.race([o, Promise.resolve(pending)]).then((v) => (v === pending ? 'pending' : (v as string)))));
}

function floodPlugin(endpoint: string, name: string): McpPlugin {
  const plugin = createPlugin({ name, version: '1.0.0', role: 'editor', endpoint });
  plugin.tool({
    name: 'flood',
    description: 'Starts `count` elicitations at once and reports what each became within a second.',
    input: z.object({ count: z.number().int() }),
    handler: async ({ count }, ctx) => ({ outcomes: await settle(Array.from({ length: count }, (_, i) => ctx.elicit(`question ${i}`, schema)), 1_000) }),
  });
  return plugin;
}

describe('a human answering an elicitation does not run down plugin-timeout', () => {
  let junction: TestJunction;
  let plugin: McpPlugin;
  let agent: Client;
  let answerAfterMs = 0;

  before(async () => {
    junction = await startTestJunction([`plugin-timeout=${TIMEOUT_MS}`]);
    plugin = createPlugin({ name: 'asker', version: '1.0.0', role: 'editor', endpoint: `${junction.baseUrl}/hub/mcp-server` });
    plugin.tool({
      name: 'confirm',
      description: 'Asks the user, then answers at once or after `thenMs`.',
      input: z.object({ thenMs: z.number().int().default(0) }),
      handler: async ({ thenMs }, ctx) => {
        const answer = await ctx.elicit('Go ahead?', schema);
        await sleep(thenMs);
        return { answer: answer.action, ok: answer.content?.['ok'] ?? null };
      },
    });
    await plugin.connect();
    agent = new Client({ name: 'slow-human', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    agent.setRequestHandler(ElicitRequestSchema, async () => {
      await sleep(answerAfterMs);
      return { action: 'accept', content: { ok: true } };
    });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`)));
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'confirm'), 10_000, 'the tool');
  });
  after(async () => {
    await agent.close();
    await plugin.disconnect();
    await junction.stop();
  });

  test('an answer after more than plugin-timeout still reaches the tool, and the call succeeds', async () => {
    answerAfterMs = TIMEOUT_MS + 1_000;
    const result = (await agent.callTool({ name: 'confirm', arguments: {} })) as CallToolResult;
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(result.structuredContent, { answer: 'accept', ok: true });
  });

  test('after the answer the rest of the budget runs on: a plugin slower than that still times out', async () => {
    answerAfterMs = TIMEOUT_MS + 500;
    const result = (await agent.callTool({ name: 'confirm', arguments: { thenMs: TIMEOUT_MS * 3 } })) as CallToolResult;
    assert.equal(result.isError, true);
    const error = (result.structuredContent as { error: { code: string; message: string } }).error;
    assert.equal(error.code, 'ToolTimeout');
    assert.match(error.message, /waiting for the plugin/);
  });
});

describe('flooding agent requests is refused with AgentRequestError TooManyRequests', () => {
  let junction: TestJunction;
  const plugins: McpPlugin[] = [];
  const agents: Client[] = [];

  before(async () => {
    // The operator answers elicitations in the console and never does, so every request stays pending.
    junction = await startTestJunction(['elicitation-answerer=console', 'project-routing=multi']);
  });
  after(async () => {
    await Promise.allSettled(agents.map((a) => a.close()));
    await Promise.allSettled(plugins.map((p) => p.disconnect()));
    await junction.stop();
  });

  /** A plugin of its own project and a pinned agent for it; `flood(calls)` runs that many flood calls at once. */
  const floodSource = async (hash: string): Promise<(calls: number) => Promise<string[]>> => {
    const plugin = floodPlugin(`${junction.baseUrl}/hub/mcp-server?project_path_hash=${hash}`, `flood-${hash}`);
    plugins.push(plugin);
    await plugin.connect();
    const agent = new Client({ name: `agent-${hash}`, version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/p/${hash}/mcp`)));
    agents.push(agent);
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'flood'), 10_000, 'the flood tool');
    return async (calls) => {
      const results = await Promise.all(Array.from({ length: calls }, () => agent.callTool({ name: 'flood', arguments: { count: 8 } }) as Promise<CallToolResult>));
      return results.flatMap((r) => {
        assert.equal(r.isError, undefined, JSON.stringify(r));
        return (r.structuredContent as { outcomes: string[] }).outcomes;
      });
    };
  };

  test('one connection past its bound: the requests beyond it (the 65th included) are TooManyRequests, none a plain Error', async () => {
    const flood = await floodSource('11110000');
    // Nine calls of eight: 72 requests from one connection, more than its hub invocations (64).
    const outcomes = await flood(9);
    assert.equal(outcomes.length, 72);
    const refused = outcomes.filter((o) => o !== 'pending');
    assert.deepEqual([...new Set(refused)], ['AgentRequestError:TooManyRequests'], JSON.stringify([...new Set(outcomes)]));
    assert.ok(refused.length >= 72 - 64, `${refused.length} refused`);
    const pending = outcomes.length - refused.length;
    assert.ok(pending > 0 && pending <= 32, `${pending} pending, at most half the connection's 64 invocations`);
  });

  test("the console's own bound (64 pending across plugins) is TooManyRequests for the plugin too", async () => {
    // Three connections, each within its own bound (32, 32 and 8 requests), 72 at once against the console's 64.
    const floods = await Promise.all(['22220000', '44440000', '33330000'].map(floodSource));
    const outcomes = (await Promise.all([floods[0]!(4), floods[1]!(4), floods[2]!(1)])).flat();
    assert.equal(outcomes.length, 72);
    const refused = outcomes.filter((o) => o !== 'pending');
    assert.equal(refused.length, 72 - 64, JSON.stringify([...new Set(outcomes)]));
    assert.deepEqual([...new Set(refused)], ['AgentRequestError:TooManyRequests']);
  });
});

describe('a pending agent request is bounded by its own timeout', () => {
  test('an answer that never comes ends the request at agentRequestTimeoutMs, and the call runs on to its own end', async () => {
    const bridge = await startBridge({ pluginTimeoutMs: 400, agentRequestTimeoutMs: 1_200 });
    const plugin = createPlugin({ name: 'waits', version: '1.0.0', role: 'editor', endpoint: bridge.endpoint });
    plugin.tool({
      name: 'ask',
      description: 'Asks and reports how the request ended.',
      input: z.object({}),
      handler: async (_args, ctx) => {
        try {
          return { answer: (await ctx.elicit('Anyone?', schema)).action };
        } catch (error) {
          return { code: error instanceof AgentRequestError ? error.code : 'plain Error', message: (error as Error).message };
        }
      },
    });
    let withdrawn = false;
    const silent: AgentRequests = {
      // An agent that never answers: only the bridge's bound ends the wait.
      elicit: (_params, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            withdrawn = true;
            reject(signal.reason as Error);
          }, { once: true });
        }),
      sample: () => Promise.reject(new Error('not used')),
      listRoots: () => Promise.reject(new Error('not used')),
      log: () => undefined,
    };
    try {
      await plugin.connect();
      await until(bridge.bridge, () => toolNames(bridge.bridge).includes('ask'), 'the tool');
      const outcome = await bridge.bridge.tools.callTool('ask', {}, callContext({ agentRequests: silent }));
      assert.equal(outcome.error, undefined, JSON.stringify(outcome.result));
      const value = outcome.result.structuredContent as { code?: string; message?: string };
      assert.equal(value.code, 'AgentRequestFailed');
      assert.match(value.message ?? '', /did not answer within 1200 ms/);
      assert.ok(withdrawn, 'the agent was told the request is withdrawn');
      assert.deepEqual(bridge.bridge.extensionCounts(), { calls: 0, nested: 0, subscribedResources: 0 });
    } finally {
      await plugin.disconnect();
      await bridge.close();
    }
  });
});
