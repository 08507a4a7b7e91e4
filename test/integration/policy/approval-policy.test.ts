/**
 * The approval policy on the real stack: real MCP SDK clients (streamable HTTP and `junction connect`
 * over stdio), plain HTTP on /api, and a real SDK plugin behind the bridge. The operator decides through
 * the control API, the same door the console uses (the Chromium test drives the console itself).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startScenePlugin, type RunningScenePlugin } from '../../../plugins/examples/scene/plugin.js';
import type { CallApprovalView, CallView, ControlEvent, PolicyDocument } from '../../../src-main/contracts/console.js';
import { CLI_SOURCE_FOR_TESTS } from '../../support/cli.js';
import { loadTranscript, replayDotNetClient } from '../../support/dotnet-replay.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

type Structured = { error?: { code: string; message: string; next?: { kind: string } }; removed?: string; object?: { id: string } };

const POLICY: PolicyDocument = {
  rules: [
    { tool: 'remove-*', action: 'ask', reason: 'removals need a human' },
    { tool: 'add-object', arguments: [{ pointer: '/kind', equals: 'sphere' }], action: 'deny', reason: 'no spheres in this scene' },
    { tool: 'add-object', arguments: [{ pointer: '/name', regex: '^held-' }], action: 'ask' },
  ],
};

describe('approval policy for every tool call', () => {
  let dir: string;
  let policyPath: string;
  let junction: TestJunction;
  let plugin: RunningScenePlugin;
  let agent: Client;
  const events: ControlEvent[] = [];
  let unsubscribe: () => void;

  const ended = (askId: string) => events.some((e) => e.type === 'callApproval.decided' && e.approval.askId === askId);
  /** The next call the policy holds for the operator, as the console sees it (calls that already ended are skipped). */
  const nextHeld = (tool: string): Promise<CallApprovalView> =>
    eventually(() => {
      const index = events.findIndex((e) => e.type === 'callApproval.requested' && e.approval.tool === tool && !ended(e.approval.askId));
      if (index === -1) return undefined;
      const [event] = events.splice(index, 1);
      return (event as Extract<ControlEvent, { type: 'callApproval.requested' }>).approval;
    }, 10_000, `a held ${tool} call`);
  const finishedCall = (callId: string): Promise<CallView> =>
    eventually(() => events.flatMap((e) => (e.type === 'call.finished' && e.call.callId === callId ? [e.call] : []))[0], 5000, 'the finished call');
  const call = async (client: Client, name: string, args: Record<string, unknown>, onprogress?: () => void) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000, ...(onprogress ? { onprogress } : {}) });
    return { isError: result.isError === true, value: (result.structuredContent ?? {}) as Structured };
  };
  const addObject = async (name: string) => (await call(agent, 'add-object', { name, kind: 'cube' })).value.object!.id;
  const api = async (name: string, body: unknown) => {
    const response = await fetch(`${junction.baseUrl}/api/tools/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Structured };
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junction-policy-'));
    policyPath = join(dir, 'policy.json');
    await writeFile(policyPath, JSON.stringify(POLICY));
    junction = await startTestJunction([`approval-policy=${policyPath}`, 'approval-timeout=3']);
    unsubscribe = junction.control.subscribe((e) => events.push(e));
    plugin = await startScenePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, role: 'editor', name: 'scene-policy' });
    agent = await junction.connectAgent();
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'remove-object'), 10_000, 'plugin tools');
  });
  after(async () => {
    unsubscribe?.();
    await plugin?.stop();
    await junction?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('an ask rule holds the call until the operator allows it; the agent hears progress while it waits', async () => {
    const id = await addObject('Cube to remove');
    let progressed = 0;
    const removing = call(agent, 'remove-object', { id }, () => (progressed += 1));
    const held = await nextHeld('remove-object');
    assert.deepEqual(held.arguments, { id });
    assert.equal(held.argumentBytes, Buffer.byteLength(JSON.stringify({ id })));
    assert.equal(held.description, 'Removes the object with the given id from the scene.');
    assert.equal(held.annotations?.destructiveHint, true);
    assert.equal(held.target, 'bridge:editor scene-policy');
    assert.equal(held.agentName, 'test-agent');
    assert.match(held.reason, /rule 0: tool 'remove-object' matches 'remove-\*' \(removals need a human\)/);
    assert.equal(plugin.scene.list(10).items.some((o) => o.id === id), true, 'nothing ran while the call was held');
    await eventually(() => progressed > 0, 5000, 'a progress notification');
    await junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'allow-once' });
    const removed = await removing;
    assert.equal(removed.isError, false, JSON.stringify(removed.value));
    assert.equal(removed.value.removed, id);
    const record = await finishedCall(held.callId);
    assert.deepEqual(
      { action: record.policy?.action, ruleIndex: record.policy?.ruleIndex, decidedBy: record.policy?.decidedBy, decision: record.policy?.decision, askId: record.policy?.askId },
      { action: 'ask', ruleIndex: 0, decidedBy: 'operator', decision: 'allow-once', askId: held.askId },
    );
  });

  test('deny and timeout reach the MCP agent with their codes; nothing runs', async () => {
    const id = await addObject('Kept cube');
    const denying = call(agent, 'remove-object', { id });
    const held = await nextHeld('remove-object');
    await junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'deny', reason: 'keep the cube' });
    const denied = await denying;
    assert.equal(denied.isError, true);
    assert.equal(denied.value.error?.code, 'ApprovalDenied');
    assert.match(denied.value.error!.message, /keep the cube/);

    const timingOut = call(agent, 'remove-object', { id });
    const waiting = await nextHeld('remove-object');
    const timedOut = await timingOut;
    assert.equal(timedOut.value.error?.code, 'ApprovalTimedOut');
    assert.equal(timedOut.value.error?.next?.kind, 'retryLater');
    await assert.rejects(junction.control.decideCall({ askId: waiting.askId, digest: waiting.digest, decision: 'allow-once' }), (e: Error & { code?: string }) => e.code === 'Conflict' && /timedOut/.test(e.message));
    assert.equal(plugin.scene.list(10).items.some((o) => o.id === id), true, 'the cube survived both attempts');
    assert.equal((await finishedCall(waiting.callId)).policy?.decidedBy, 'timeout');
  });

  test('argument matchers tell two calls of one tool apart', async () => {
    const sphere = await call(agent, 'add-object', { name: 'Ball', kind: 'sphere' });
    assert.equal(sphere.value.error?.code, 'ApprovalDenied');
    assert.match(sphere.value.error!.message, /no spheres in this scene/);
    const plain = await call(agent, 'add-object', { name: 'plain', kind: 'cube' });
    assert.equal(plain.isError, false, 'the same tool with other arguments is not held');
    const holding = call(agent, 'add-object', { name: 'held-1', kind: 'cube' });
    const held = await nextHeld('add-object');
    assert.equal(held.ruleIndex, 2);
    await junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'allow-once' });
    assert.equal((await holding).isError, false);
  });

  test('allow for this session lets later calls of that session pass, not other sessions', async () => {
    const [a, b, c] = [await addObject('s1'), await addObject('s2'), await addObject('s3')];
    const first = call(agent, 'remove-object', { id: a });
    const held = await nextHeld('remove-object');
    await junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'allow-session' });
    assert.equal((await first).isError, false);
    const second = await call(agent, 'remove-object', { id: b });
    assert.equal(second.isError, false, 'the same session is not asked again');
    const other = await junction.connectAgent();
    const third = call(other, 'remove-object', { id: c });
    const heldOther = await nextHeld('remove-object');
    await junction.control.decideCall({ askId: heldOther.askId, digest: heldOther.digest, decision: 'deny', reason: 'other session' });
    assert.equal((await third).value.error?.code, 'ApprovalDenied');
  });

  test('over /api: deny and timeout are HTTP 403 with the usual error body', async () => {
    const id = await addObject('api cube');
    const denying = api('remove-object', { id });
    const held = await nextHeld('remove-object');
    assert.equal(held.transport, 'http-api');
    assert.equal(held.agentName, 'http');
    await junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'deny', reason: 'not over http' });
    const denied = await denying;
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error?.code, 'ApprovalDenied');
    assert.match(denied.body.error!.message, /not over http/);
    const timedOut = await api('remove-object', { id });
    assert.equal(timedOut.status, 403);
    assert.equal(timedOut.body.error?.code, 'ApprovalTimedOut');
    assert.equal(timedOut.body.error?.next?.kind, 'retryLater');
    const allowed = api('remove-object', { id });
    const again = await nextHeld('remove-object');
    await junction.control.decideCall({ askId: again.askId, digest: again.digest, decision: 'allow-once' });
    assert.equal((await allowed).status, 200);
  });

  test('over stdio (junction connect): deny and timeout reach the agent with their codes', async () => {
    const id = await addObject('stdio cube');
    const transport = new StdioClientTransport({ command: process.execPath, args: [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(junction.port), 'log-level=error'], stderr: 'pipe' });
    const stdio = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await stdio.connect(transport);
    try {
      const denying = call(stdio, 'remove-object', { id });
      const held = await nextHeld('remove-object');
      assert.equal(held.agentName, 'stdio-agent');
      await junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'deny', reason: 'stdio says no' });
      const denied = await denying;
      assert.equal(denied.value.error?.code, 'ApprovalDenied');
      const timedOut = await call(stdio, 'remove-object', { id });
      assert.equal(timedOut.value.error?.code, 'ApprovalTimedOut');
    } finally {
      await stdio.close();
    }
  });

  test('always allow writes a rule into the policy file and the tool is no longer held', async () => {
    const [a, b] = [await addObject('always-1'), await addObject('always-2')];
    // `agent` holds a session grant from an earlier test, so a fresh session asks.
    const asker = await junction.connectAgent();
    const first = call(asker, 'remove-object', { id: a });
    const held = await nextHeld('remove-object');
    const [decided, racing] = await Promise.allSettled([
      junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'always' }),
      junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'deny', reason: 'second console' }),
    ]);
    assert.equal(decided.status, 'fulfilled');
    assert.ok(racing.status === 'rejected' && (racing.reason as { code: string }).code === 'Conflict', 'the second console is told another decision is being applied');
    assert.equal((await first).isError, false, 'the first decision wins and the call runs');
    const saved = JSON.parse(await readFile(policyPath, 'utf8')) as PolicyDocument;
    assert.equal(saved.rules[0]?.tool, 'remove-object');
    assert.equal(saved.rules[0]?.action, 'allow');
    assert.equal(saved.rules.length, POLICY.rules.length + 1);
    const updated = events.find((e) => e.type === 'policy.updated');
    assert.ok(updated && updated.type === 'policy.updated' && updated.change.kind === 'always-allow' && updated.change.ruleIndex === 0);
    const other = await junction.connectAgent();
    const second = await call(other, 'remove-object', { id: b });
    assert.equal(second.isError, false, 'another session is not asked either');
  });
});

describe('approval policy for plugin system tools (/api/system-tools)', () => {
  test('a replayed .NET McpPlugin client\'s system tool is refused by a deny rule with 403 ApprovalDenied', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'junction-policy-system-'));
    const file = join(dir, 'policy.json');
    await writeFile(file, JSON.stringify({ rules: [{ tool: 'ping', source: 'bridge', action: 'deny', reason: 'no system pings' }] }));
    const junction = await startTestJunction([`approval-policy=${file}`]);
    const replay = await replayDotNetClient(junction.baseUrl, loadTranscript('dotnet-8x-session.json'));
    try {
      await replay.runClientInvocations();
      await eventually(async () => (await fetch(`${junction.baseUrl}/api/system-tools`)).status === 200, 10_000, 'the plugin\'s system tools');
      const response = await fetch(`${junction.baseUrl}/api/system-tools/ping`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const body = (await response.json()) as Structured;
      assert.equal(response.status, 403);
      assert.equal(body.error?.code, 'ApprovalDenied');
      assert.match(body.error!.message, /no system pings/);
      assert.equal(replay.received.some((r) => r.target === 'RunSystemTool'), false, 'the plugin was never asked');
    } finally {
      await replay.close();
      await junction.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('approval policy file at start', () => {
  test('an invalid policy stops the start, naming the rule index and field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'junction-policy-bad-'));
    try {
      const file = join(dir, 'policy.json');
      await writeFile(file, JSON.stringify({ rules: [{ tool: 'a', action: 'ask' }, { tool: 'b', action: 'ask', when: 'now' }] }));
      await assert.rejects(startTestJunction([`approval-policy=${file}`]), (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && /rule 1, field rules\.1\.when: unknown field "when"/.test(e.message));
      await writeFile(file, '{"rules": [');
      await assert.rejects(startTestJunction([`approval-policy=${file}`]), (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && /not valid JSON/.test(e.message));
      await assert.rejects(startTestJunction([`approval-policy=${join(dir, 'missing.json')}`]), (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && /cannot be read \(ENOENT\)/.test(e.message));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
