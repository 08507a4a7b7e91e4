/**
 * Large arguments and results pass through Junction without staying in it. Every observer of the call
 * path (the console's call log and nested traces, the audit trail and its write queue, webhooks, agent
 * presence, the approval policy's held and decided calls) keeps at most a bounded copy: V8 keeps a
 * slice of a string, and every string JSON.parse takes from a request body, as a view into its source,
 * so a 200-character preview kept by mistake would hold all 8 MB alive. Measured on the V8 heap after
 * full collections, with a real SDK plugin behind the bridge and a real MCP client.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createPlugin, type McpPlugin } from '../../../plugins/sdk/index.js';
import type { CallApprovalView, ControlEvent, PolicyDocument } from '../../../src-main/contracts/console.js';
import { collectGarbage } from '../../reliability/scenarios/rss.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const EIGHT_MB = 8 * 1024 * 1024;
/** Far below one retained argument or result, far above the heap's noise between two full collections. */
const GROWTH_LIMIT_MB = 2;
const CALLS_PER_PATH = 2;

const POLICY: PolicyDocument = { rules: [{ tool: 'echo-held', action: 'ask', reason: 'held for the memory test' }] };

/** A different 8 MB string each time, so nothing is shared between calls or with the test's own constants. */
function bigText(tag: string): string {
  return `${tag}:${Buffer.alloc(EIGHT_MB, 'x').toString('latin1')}`;
}

/** Heap in use after collections that leave nothing collectable behind (weak callbacks need a second pass). */
async function settledHeapMb(): Promise<number> {
  for (let n = 0; n < 3; n++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    collectGarbage();
  }
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe('large arguments and results leave nothing large behind', { timeout: 300_000 }, () => {
  let dir: string;
  let junction: TestJunction;
  let plugin: McpPlugin;
  let agent: Client;
  const events: ControlEvent[] = [];
  let unsubscribe: () => void;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junction-memory-'));
    const policyPath = join(dir, 'policy.json');
    await writeFile(policyPath, JSON.stringify(POLICY));
    junction = await startTestJunction([`approval-policy=${policyPath}`, 'max-body-bytes=67108864', 'max-frame-bytes=67108864']);
    unsubscribe = junction.control.subscribe((e) => {
      if (e.type === 'callApproval.requested') events.push(e);
    });
    plugin = createPlugin({ name: 'echo', version: '1.0.0', role: 'editor', endpoint: `${junction.baseUrl}/hub/mcp-server` });
    // The result is a new string as large as the argument, not the argument itself.
    const echo = async ({ text }: { text: string }) => ({ length: text.length, text: text.toUpperCase() });
    plugin.tool({ name: 'echo', description: 'Echoes its text in upper case.', input: z.object({ text: z.string() }), handler: echo });
    plugin.tool({ name: 'echo-held', description: 'Echoes its text after the operator allows it.', input: z.object({ text: z.string() }), handler: echo });
    // Asks the agent with the text as the question; the test agent cannot answer elicitations, so the question only passes through the call trace.
    plugin.tool({
      name: 'ask',
      description: 'Asks the agent its text.',
      input: z.object({ text: z.string() }),
      handler: async ({ text }, ctx) => {
        const answer = await ctx.elicit(text, { type: 'object', properties: { ok: { type: 'boolean' } } }).then((a) => a.action, (e: Error) => e.message.slice(0, 40));
        return { length: text.length, answer };
      },
    });
    await plugin.connect();
    agent = await junction.connectAgent();
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'echo-held'), 10_000, 'the plugin tools');
  });
  after(async () => {
    unsubscribe?.();
    await plugin?.disconnect();
    await junction?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const api = async (name: string, text: string): Promise<number> => {
    const response = await fetch(`${junction.baseUrl}/api/tools/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
    const body = (await response.json()) as { length?: number; structuredContent?: { length?: number } };
    assert.equal(response.status, 200, JSON.stringify(body).slice(0, 300));
    return body.length ?? body.structuredContent?.length ?? -1;
  };
  const mcp = async (name: string, text: string): Promise<number> => {
    const result = await agent.callTool({ name, arguments: { text } }, undefined, { timeout: 60_000 });
    assert.notEqual(result.isError, true, JSON.stringify(result).slice(0, 300));
    return (result.structuredContent as { length: number }).length;
  };
  /** Calls a tool the policy holds, and allows it from the control API once it is held. */
  const held = async (via: (name: string, text: string) => Promise<number>, text: string): Promise<number> => {
    const running = via('echo-held', text);
    const approval = await eventually(() => {
      const index = events.findIndex((e) => e.type === 'callApproval.requested');
      return index === -1 ? undefined : (events.splice(index, 1)[0] as Extract<ControlEvent, { type: 'callApproval.requested' }>).approval;
    }, 30_000, 'the held call');
    const view: CallApprovalView = approval;
    assert.equal((view.arguments as { text: string }).text.length, text.length, 'a held call shows its full arguments while it waits');
    await junction.control.decideCall({ askId: view.askId, digest: view.digest, decision: 'allow-once' });
    return running;
  };

  /** An agent that names itself with megabytes calls once and ends its session. */
  const visitAsHugelyNamedAgent = async (): Promise<void> => {
    const named = new Client({ name: bigText('agent-name'), version: bigText('agent-version') });
    const transport = new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`));
    await named.connect(transport);
    assert.ok((await named.callTool({ name: 'echo', arguments: { text: 'hello' } })).structuredContent);
    await transport.terminateSession();
    await named.close();
  };

  // Megabytes through every layer take long on a loaded machine: more than the runner's default 120 s was seen.
  test('8 MB arguments and results over /api and /mcp, held by the policy or not, leave heap growth far below 8 MB', { timeout: 300_000 }, async () => {
    // Warm-up with small values, so code paths, caches and compiled functions already count in the baseline.
    for (let n = 0; n < 3; n++) {
      await api('echo', `warm-${n}`);
      await mcp('echo', `warm-${n}`);
    }
    const baselineMb = await settledHeapMb();

    const paths: Array<[string, () => Promise<number>]> = [];
    for (let n = 0; n < CALLS_PER_PATH; n++) {
      paths.push([`/api echo ${n}`, () => api('echo', bigText(`api-${n}`))]);
      paths.push([`/mcp echo ${n}`, () => mcp('echo', bigText(`mcp-${n}`))]);
    }
    paths.push(['/api held', () => held(api, bigText('api-held'))]);
    paths.push(['/mcp held', () => held(mcp, bigText('mcp-held'))]);
    paths.push(['/mcp elicitation', () => mcp('ask', bigText('mcp-ask'))]);
    for (const [label, run] of paths) assert.ok((await run()) > EIGHT_MB, `${label} passed the whole text`);

    // An unknown tool named with megabytes, over both routes.
    const unknownApi = await fetch(`${junction.baseUrl}/api/tools/${'t'.repeat(8000)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(unknownApi.status, 404);
    await unknownApi.arrayBuffer();
    await assert.rejects(agent.callTool({ name: bigText('no-such-tool'), arguments: {} }), /-32602|not in the catalogue/);

    await visitAsHugelyNamedAgent();

    // Small calls on every route afterwards: client libraries (the plugin's SignalR client) keep their last message until the next.
    for (let n = 0; n < 3; n++) {
      await api('echo', `after-${n}`);
      await mcp('echo', `after-${n}`);
    }

    const growthMb = (await settledHeapMb()) - baselineMb;
    assert.ok(growthMb < GROWTH_LIMIT_MB, `the heap grew by ${growthMb.toFixed(1)} MB after ${paths.length} calls with 8 MB arguments and results`);
  });
});
