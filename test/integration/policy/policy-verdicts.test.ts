/**
 * The policy's verdicts on the real stack, where they used to fail: regexes that backtrack for seconds
 * (against a Junction in a child process, so a stalled event loop there cannot stall this test's own
 * timers), values that are not strings under string matchers, deeply nested `equals` values, and the
 * `greaterThan` matcher, with a real SDK plugin behind the bridge and real MCP and HTTP agents.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startScenePlugin, type RunningScenePlugin } from '../../../plugins/examples/scene/plugin.js';
import type { ControlEvent, PolicyDocument } from '../../../src-main/contracts/console.js';
import { startJunctionProcess } from '../../support/junction-process.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

type Structured = { error?: { code: string; message: string } };

async function policyFile(document: PolicyDocument | string): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'junction-verdicts-'));
  const path = join(dir, 'policy.json');
  await writeFile(path, typeof document === 'string' ? document : JSON.stringify(document));
  return { dir, path };
}

const post = async (baseUrl: string, tool: string, body: unknown) => {
  const response = await fetch(`${baseUrl}/api/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Structured };
};

describe('policy regexes run in linear time', () => {
  test('patterns that backtrack catastrophically are accepted and /healthz answers while hostile values are matched', async () => {
    const { dir, path } = await policyFile({
      rules: [
        { arguments: [{ pointer: '/name', regex: '^(?:[a-z]{1,16}-?){1,16}$' }], action: 'deny', reason: 'slugs' },
        { arguments: [{ pointer: '/name', regex: '.*.*x$' }], action: 'deny', reason: 'ends in x' },
      ],
    });
    const junction = await startJunctionProcess([`approval-policy=${path}`]);
    let interleaved = 0;
    const exercise = async (): Promise<void> => {
      assert.equal((await post(junction.baseUrl, 'server-status', { name: 'abc-def' })).body.error?.code, 'ApprovalDenied', 'a slug is denied');
      assert.equal((await post(junction.baseUrl, 'server-status', { name: `${'a'.repeat(4000)}x` })).body.error?.code, 'ApprovalDenied');
      // The backtracking engine took 25 s on the first input and over 8 s on the second; one match stalled the whole process.
      const hostile = [{ name: `${'a'.repeat(40)}!` }, { name: 'a'.repeat(8000) }];
      let outstanding = 0;
      let hostileAnswered = 0;
      let stop = false;
      const hammer = async (body: unknown): Promise<void> => {
        while (!stop) {
          outstanding += 1;
          const answer = await post(junction.baseUrl, 'server-status', body).finally(() => (outstanding -= 1));
          assert.notEqual(answer.body.error?.code, 'ApprovalDenied', 'neither hostile value matches');
          hostileAnswered += 1;
        }
      };
      const loops = [...hostile, ...hostile].map(hammer);
      try {
        while (interleaved < 5) {
          const pendingBefore = outstanding;
          const response = await fetch(`${junction.baseUrl}/healthz`);
          assert.equal(response.status, 200);
          await response.arrayBuffer();
          // Answered while hostile calls were in flight before and after: the event loop served it in between.
          if (pendingBefore > 0 && outstanding > 0) interleaved += 1;
        }
      } finally {
        stop = true;
        await Promise.all(loops);
      }
      assert.ok(hostileAnswered > 0, 'hostile calls were answered');
    };
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`/healthz answered ${interleaved} of 5 times in 60 s while policy regexes ran on hostile values: a match stalls the process`)), 60_000);
    });
    try {
      await Promise.race([exercise(), bound]);
      await junction.stop();
    } catch (error) {
      // A stalled child never answers its stop request.
      process.kill(junction.pid, 'SIGKILL');
      throw error;
    } finally {
      clearTimeout(timer);
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('policy verdicts on values a matcher cannot judge, and greaterThan', () => {
  let dir: string;
  let junction: TestJunction;
  let plugin: RunningScenePlugin;
  let agent: Client;

  before(async () => {
    ({ dir } = await policyFile('{"rules":[]}'));
    const path = join(dir, 'policy.json');
    await writeFile(
      path,
      JSON.stringify({
        rules: [
          { tool: 'add-object', arguments: [{ pointer: '/name', regex: '^/etc/' }], action: 'deny', reason: 'no system paths' },
          { tool: 'add-object', arguments: [{ pointer: '/name', regex: '^ok-' }], action: 'allow' },
          { tool: 'add-object', action: 'deny', reason: 'only ok- names' },
          { tool: 'list-objects', arguments: [{ pointer: '/limit', greaterThan: 100 }], action: 'deny', reason: 'at most 100 objects' },
        ],
      } satisfies PolicyDocument),
    );
    junction = await startTestJunction([`approval-policy=${path}`]);
    plugin = await startScenePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, role: 'editor', name: 'scene-verdicts' });
    agent = await junction.connectAgent();
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'list-objects'), 10_000, 'plugin tools');
  });
  after(async () => {
    await plugin?.stop();
    await junction?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const mcpCode = async (name: string, args: Record<string, unknown>) => {
    const result = await agent.callTool({ name, arguments: args });
    return (result.structuredContent as Structured | undefined)?.error?.code;
  };

  test('a deny rule on /name refuses arrays, objects, null and other casings of the value, over MCP and /api alike', async () => {
    const before = plugin.scene.list(1000).items.length;
    for (const args of [{ name: ['/etc/passwd'], kind: 'cube' }, { name: { 0: '/etc/passwd' }, kind: 'cube' }, { Name: '/etc/passwd', kind: 'cube' }, { name: null, kind: 'cube' }]) {
      assert.equal(await mcpCode('add-object', args), 'ApprovalDenied', JSON.stringify(args));
      const api = await post(junction.baseUrl, 'add-object', args);
      assert.equal(api.status, 403, JSON.stringify(args));
      assert.match(api.body.error!.message, /no system paths/);
    }
    assert.equal(plugin.scene.list(1000).items.length, before, 'nothing ran');
  });

  test('an allow rule applies only when the matcher can judge every candidate', async () => {
    assert.equal(await mcpCode('add-object', { name: 'ok-cube', kind: 'cube' }), undefined);
    const smuggled = await post(junction.baseUrl, 'add-object', { name: 'ok-cube', NAME: '/home/x', kind: 'cube' });
    assert.equal(smuggled.body.error?.code, 'ApprovalDenied', 'a second casing that the allow rule does not cover falls to the deny rule');
    assert.match(smuggled.body.error!.message, /only ok- names/);
    assert.equal((await post(junction.baseUrl, 'add-object', { name: ['ok-cube'], kind: 'cube' })).body.error?.code, 'ApprovalDenied');
  });

  test('greaterThan denies large numbers and what is not a number, and lets small numbers run', async () => {
    assert.equal(await mcpCode('list-objects', { limit: 5 }), undefined);
    assert.equal(await mcpCode('list-objects', { limit: 101 }), 'ApprovalDenied');
    assert.equal((await post(junction.baseUrl, 'list-objects', { limit: '500' })).body.error?.code, 'ApprovalDenied');
  });
});

describe('deeply nested equals values', () => {
  const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;

  test('at start and in a console save they are refused naming the rule and field', async () => {
    const { dir, path } = await policyFile(`{"rules":[{"tool":"x","action":"ask"},{"action":"deny","arguments":[{"pointer":"/a","equals":${deep}}]}]}`);
    try {
      await assert.rejects(startTestJunction([`approval-policy=${path}`]), (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && /rule 1, field rules\.1\.arguments\.0\.equals: nests deeper than 32 levels/.test(e.message));
      await writeFile(path, '{"rules":[]}');
      const junction = await startTestJunction([`approval-policy=${path}`]);
      try {
        const { version } = (await junction.control.snapshot()).policy!;
        await assert.rejects(junction.control.savePolicy({ text: `{"rules":[{"action":"deny","arguments":[{"pointer":"/a","equals":${deep}}]}]}`, baseVersion: version }), (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && /rule 0, field rules\.0\.arguments\.0\.equals/.test(e.message));
      } finally {
        await junction.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a decision is bound to where the call runs', () => {
  test('a new editor taking the slot while a call waits re-asks the call naming the change; the old approval runs nothing', async () => {
    const { dir, path } = await policyFile({ rules: [{ tool: 'remove-object', action: 'ask' }] });
    const junction = await startTestJunction([`approval-policy=${path}`, 'approval-timeout=30']);
    const events: ControlEvent[] = [];
    const unsubscribe = junction.control.subscribe((e) => events.push(e));
    const first = await startScenePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, role: 'editor', name: 'scene-first' });
    let second: RunningScenePlugin | undefined;
    try {
      const agent = await junction.connectAgent();
      await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'remove-object'), 10_000, 'plugin tools');
      const added = (await agent.callTool({ name: 'add-object', arguments: { name: 'kept', kind: 'cube' } })).structuredContent as { object: { id: string } };
      const id = added.object.id;
      const removing = agent.callTool({ name: 'remove-object', arguments: { id } }, undefined, { timeout: 30_000 });
      const requested = (askId?: string) => events.flatMap((e) => (e.type === 'callApproval.requested' && (askId === undefined || e.approval.askId === askId) ? [e.approval] : []));
      const held = await eventually(() => requested()[0], 10_000, 'the held call');
      assert.equal(held.target, 'bridge:editor scene-first');

      second = await startScenePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, role: 'editor', name: 'scene-second' });
      await eventually(() => junction.control.snapshot().then((s) => s.plugins.some((p) => p.name === 'scene-second' && p.role === 'editor' && p.toolCount > 0)), 10_000, 'the second editor');
      await assert.rejects(junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'allow-once' }), (e: Error & { code?: string }) => e.code === 'Conflict');
      const changed = await eventually(() => requested(held.askId).find((v) => v.targetChange !== undefined), 5000, 'the card to show the target change');
      assert.deepEqual({ from: changed.targetChange!.from, to: changed.targetChange!.to }, { from: 'bridge:editor scene-first', to: 'bridge:editor scene-second' });
      assert.equal(changed.target, 'bridge:editor scene-second');
      assert.notEqual(changed.digest, held.digest);
      assert.ok(first.scene.list(10).items.some((o) => o.id === id), 'nothing ran on the first editor');

      await junction.control.decideCall({ askId: changed.askId, digest: changed.digest, decision: 'deny', reason: 'not on the second editor' });
      const denied = await removing;
      assert.equal((denied.structuredContent as Structured).error?.code, 'ApprovalDenied');
    } finally {
      unsubscribe();
      await second?.stop();
      await first.stop();
      await junction.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
