/**
 * The operator's tools around held calls, through the control API the console uses, on a real Junction
 * with real MCP agents: the "always allow" preview (the exact rule, scoped to that tool and that agent),
 * its undo, prompts that renumbering does not misdirect, dead and shadowed rules flagged, session
 * grants listed and revoked, and the decision log in time order with arguments and call ids.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallApprovalView, ControlEvent, PolicyDocument } from '../../../src-main/contracts/console.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const POLICY: PolicyDocument = {
  rules: [
    { tool: 'server-status', action: 'ask', reason: 'status needs a human' },
    { tool: 'workspace-status', action: 'ask' },
    { tool: 'recovery-status', action: 'deny' },
  ],
};

describe('operator decisions around held calls', () => {
  let dir: string;
  let path: string;
  let junction: TestJunction;
  const events: ControlEvent[] = [];
  const agents: Client[] = [];

  const agentNamed = async (name: string): Promise<Client> => {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`)));
    agents.push(client);
    return client;
  };
  const call = (client: Client, name: string) => client.callTool({ name, arguments: {} }, undefined, { timeout: 30_000 }).then((r) => (r.structuredContent as { error?: { code: string } } | undefined)?.error?.code);
  const seen = new Set<string>();
  /** The next held call of `tool` not yet taken by this test. */
  const nextHeld = (tool: string): Promise<CallApprovalView> =>
    eventually(() => {
      const view = events.flatMap((e) => (e.type === 'callApproval.requested' && e.approval.tool === tool && !seen.has(e.approval.askId) ? [e.approval] : []))[0];
      if (view) seen.add(view.askId);
      return view;
    }, 10_000, `a held ${tool}`);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junction-decisions-'));
    path = join(dir, 'policy.json');
    await writeFile(path, JSON.stringify(POLICY));
    junction = await startTestJunction([`approval-policy=${path}`, 'approval-timeout=30']);
    junction.control.subscribe((e) => events.push(e));
  });
  after(async () => {
    await Promise.allSettled(agents.map((a) => a.close()));
    await junction?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('always allow: previewed exactly, scoped to that tool and agent, leaves the other prompt valid, and is undone', async () => {
    const alice = await agentNamed('alice');
    const bob = await agentNamed('bob');
    const aliceStatus = call(alice, 'server-status');
    const held = await nextHeld('server-status');
    const bobWorkspace = call(bob, 'workspace-status');
    const other = await nextHeld('workspace-status');
    assert.equal(other.ruleIndex, 1);

    const preview = await junction.control.previewAlwaysAllow({ askId: held.askId });
    assert.equal(preview.ruleIndex, 0);
    assert.deepEqual({ tool: preview.rule.tool, agent: preview.rule.agent, action: preview.rule.action }, { tool: 'server-status', agent: 'alice', action: 'allow' });
    assert.deepEqual(preview.findings, [], 'the ask rule stays alive for every other agent');

    await junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'always' });
    assert.equal(await aliceStatus, undefined, 'the call ran');
    const written = (JSON.parse(await readFile(path, 'utf8')) as PolicyDocument).rules;
    assert.deepEqual(written[0], preview.rule, 'the rule written is the rule previewed');
    const updated = events.flatMap((e) => (e.type === 'policy.updated' && e.change.kind === 'always-allow' ? [e] : [])).at(-1)!;

    // The other prompt moved from rule 1 to rule 2; the decision the operator was about to make still applies to it.
    await junction.control.decideCall({ askId: other.askId, digest: other.digest, decision: 'allow-once' });
    assert.equal(await bobWorkspace, undefined);

    const bobStatus = call(bob, 'server-status');
    const bobHeld = await nextHeld('server-status');
    assert.equal(bobHeld.ruleIndex, 1, 'another agent is still asked');
    await junction.control.decideCall({ askId: bobHeld.askId, digest: bobHeld.digest, decision: 'deny', reason: 'not bob' });
    assert.equal(await bobStatus, 'ApprovalDenied');

    assert.equal(await call(alice, 'server-status'), undefined, 'alice is not asked any more');
    const undone = await junction.control.undoAlwaysAllow({ version: updated.change.version });
    assert.deepEqual(undone.document.rules, POLICY.rules);
    assert.deepEqual((JSON.parse(await readFile(path, 'utf8')) as PolicyDocument).rules, POLICY.rules);
    await assert.rejects(junction.control.undoAlwaysAllow({ version: updated.change.version }), (e: Error & { code?: string }) => e.code === 'Conflict');
    const again = call(alice, 'server-status');
    const askedAgain = await nextHeld('server-status');
    await junction.control.decideCall({ askId: askedAgain.askId, digest: askedAgain.digest, decision: 'deny', reason: 'undone' });
    assert.equal(await again, 'ApprovalDenied');
  });

  test('session grants are listed and revocable; the decision log is in time order with arguments and call ids', async () => {
    const carol = await agentNamed('carol');
    const first = call(carol, 'workspace-status');
    const held = await nextHeld('workspace-status');
    await junction.control.decideCall({ askId: held.askId, digest: held.digest, decision: 'allow-session' });
    assert.equal(await first, undefined);
    const grants = await junction.control.sessionGrants();
    const grant = grants.find((g) => g.callId === held.callId)!;
    assert.ok(grant, JSON.stringify(grants));
    assert.equal(grant.tool, 'workspace-status');
    assert.match(grant.agent, /carol/);
    assert.equal(await call(carol, 'workspace-status'), undefined, 'the grant lets the session pass');

    const left = await junction.control.revokeSessionGrant({ grantId: grant.grantId });
    assert.equal(left.some((g) => g.grantId === grant.grantId), false);
    const asked = call(carol, 'workspace-status');
    const again = await nextHeld('workspace-status');
    await junction.control.decideCall({ askId: again.askId, digest: again.digest, decision: 'deny', reason: 'revoked' });
    assert.equal(await asked, 'ApprovalDenied');

    const log = await junction.control.decisionLog({ limit: 100 });
    const times = log.map((v) => v.decidedAt!);
    assert.deepEqual(times, [...times].sort((a, b) => a - b), 'oldest first');
    const last = log.at(-1)!;
    assert.deepEqual({ askId: last.askId, callId: last.callId, decision: last.decision, operatorReason: last.operatorReason, args: last.arguments }, { askId: again.askId, callId: again.callId, decision: 'deny', operatorReason: 'revoked', args: {} });
    assert.equal((await junction.control.decisionLog({ limit: 1 })).length, 1);
  });

  test('the policy view flags rules that can never decide a call', async () => {
    const { version } = (await junction.control.snapshot()).policy!;
    const saved = await junction.control.savePolicy({ text: JSON.stringify({ rules: [{ tool: 'server-*', action: 'ask' }, { tool: 'server-status', action: 'deny' }, { tool: 'server-status', agent: 'x', action: 'ask' }, { tool: 'other', action: 'allow' }] }), baseVersion: version });
    assert.deepEqual(saved.findings.map((f) => [f.ruleIndex, f.kind, f.byRule]), [[1, 'shadowed', 0], [2, 'redundant', 0]]);
  });
});
