import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallApprovalView, PolicyChangeView, PolicyDocument } from '../../../src-main/contracts/console.js';
import { CallApprovals, PolicyFile, PolicyStore } from '../../../src-main/policy/index.js';
import type { GateRequest, GateVerdict } from '../../../src-main/contracts/call-gate.js';

const ASK: PolicyDocument = { rules: [{ tool: 'deny-*', action: 'deny', reason: 'never' }, { tool: 'remove-*', action: 'ask' }] };

describe('call approvals (policy gate)', () => {
  let dir: string;
  let path: string;
  let store: PolicyStore;
  let gate: CallApprovals;
  let events: string[];
  let changes: PolicyChangeView[];
  let views: CallApprovalView[];

  const setup = async (document: PolicyDocument, timeoutMs = 60_000, file = path) => {
    await writeFile(file, JSON.stringify(document));
    const opened = await PolicyFile.open(file, (edit) => void store.outsideEdit(edit).finally(() => opened.file.settled()));
    store = new PolicyStore({ path: file, document: opened.document, persistence: opened.file });
    store.onChanged((_v, c) => changes.push(c));
    gate = new CallApprovals({
      store,
      timeoutMs,
      tickMs: 10,
      events: {
        requested: (v) => (events.push(`requested ${v.tool}`), views.push(v)),
        decided: (v) => events.push(`decided ${v.tool} ${v.state}`),
      },
    });
  };
  const request = (over: Partial<GateRequest> = {}): GateRequest => ({
    callId: 'c',
    tool: 'remove-object',
    descriptor: { name: 'remove-object', description: 'Removes an object', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } },
    target: { source: 'bridge', plugin: 'scene', role: 'editor' },
    agent: 'claude/1 #1',
    agentName: 'claude',
    session: 's1',
    transport: 'mcp-http',
    args: { id: 'cube-1' },
    signal: new AbortController().signal,
    ...over,
  });
  const held = async (): Promise<CallApprovalView> => {
    for (let i = 0; i < 100 && gate.pending().length === 0; i++) await new Promise((r) => setImmediate(r));
    return gate.pending()[0]!;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'policy-'));
    path = join(dir, 'policy.json');
    events = [];
    changes = [];
    views = [];
  });
  afterEach(async () => {
    gate?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('allow and deny rules decide without the operator; the decision is data', async () => {
    await setup(ASK);
    const allowed = await gate.authorize(request({ tool: 'add-object' }));
    assert.deepEqual(allowed, { allowed: true, args: { id: 'cube-1' }, decision: { action: 'allow', ruleIndex: null, reason: 'no rule matched; allowed by default', policyVersion: 1, decidedBy: 'policy', decision: 'allow-once' } });
    const denied = await gate.authorize(request({ tool: 'deny-all' }));
    assert.equal(denied.allowed, false);
    assert.equal(!denied.allowed && denied.error.code, 'ApprovalDenied');
    assert.equal(denied.decision.decidedBy, 'policy');
    assert.deepEqual(events, []);
  });

  test('ask holds the call; allow once runs it with exactly the digested arguments', async () => {
    await setup(ASK);
    const args = { id: 'cube-1', nested: { n: 1 } };
    const progress: number[] = [];
    const verdict = gate.authorize(request({ args, progress: (p) => progress.push(p.progress) }));
    const view = await held();
    assert.equal(view.ruleIndex, 1);
    assert.match(view.reason, /rule 1: tool 'remove-object' matches 'remove-\*'/);
    assert.equal(view.target, 'bridge:editor scene');
    assert.equal(view.argumentBytes, Buffer.byteLength('{"id":"cube-1","nested":{"n":1}}'));
    args.nested.n = 2; // the agent's object changing after the ask cannot change what runs
    await assert.rejects(gate.decide({ askId: view.askId, digest: '0'.repeat(64), decision: 'allow-once' }), { code: 'Conflict' });
    const decided = await gate.decide({ askId: view.askId, digest: view.digest, decision: 'allow-once' });
    assert.equal(decided.state, 'allowed');
    const result = (await verdict) as Extract<GateVerdict, { allowed: true }>;
    assert.deepEqual(result.args, { id: 'cube-1', nested: { n: 1 } });
    assert.equal(result.decision.decidedBy, 'operator');
    assert.equal(result.decision.decision, 'allow-once');
    assert.ok(progress.length >= 1, 'an agent with a progress token hears at once that it waits');
    // A second console deciding the same call gets a clear error, and the outcome stays as decided.
    await assert.rejects(gate.decide({ askId: view.askId, digest: view.digest, decision: 'deny', reason: 'late' }), (e: Error & { code?: string }) => e.code === 'Conflict' && /already|no longer waiting/.test(e.message));
    await assert.rejects(gate.decide({ askId: 'nope', digest: view.digest, decision: 'allow-once' }), { code: 'ApprovalNotFound' });
    assert.deepEqual(events, ['requested remove-object', 'decided remove-object allowed']);
  });

  test('allow for this session covers the same tool and rule in that session only', async () => {
    await setup(ASK);
    const first = gate.authorize(request());
    const view = await held();
    await gate.decide({ askId: view.askId, digest: view.digest, decision: 'allow-session' });
    assert.equal((await first).allowed, true);
    const again = await gate.authorize(request({ args: { id: 'other' } }));
    assert.equal(again.allowed, true);
    assert.equal(again.decision.decision, 'allow-session');
    const otherSession = gate.authorize(request({ session: 's2' }));
    assert.equal((await held()).tool, 'remove-object');
    gate.endSession('s1');
    gate.close();
    assert.equal((await otherSession).allowed, false);
  });

  test('deny needs a reason and refuses with it; timeout refuses with ApprovalTimedOut', async () => {
    await setup(ASK, 150);
    const denied = gate.authorize(request());
    const view = await held();
    await assert.rejects(gate.decide({ askId: view.askId, digest: view.digest, decision: 'deny' }), { code: 'InvalidArguments' });
    await gate.decide({ askId: view.askId, digest: view.digest, decision: 'deny', reason: 'not today' });
    const d = await denied;
    assert.ok(!d.allowed && d.error.code === 'ApprovalDenied' && d.error.message.includes('not today'));
    const timedOut = await gate.authorize(request());
    assert.ok(!timedOut.allowed && timedOut.error.code === 'ApprovalTimedOut');
    assert.equal(timedOut.decision.decidedBy, 'timeout');
    const late = gate.views().at(-1)!;
    await assert.rejects(gate.decide({ askId: late.askId, digest: late.digest, decision: 'allow-once' }), (e: Error & { code?: string }) => e.code === 'Conflict' && /timedOut/.test(e.message));
  });

  test('an agent that gives up ends the wait; a later decision is refused', async () => {
    await setup(ASK);
    const abort = new AbortController();
    const verdict = gate.authorize(request({ signal: abort.signal }));
    const view = await held();
    abort.abort();
    const v = await verdict;
    assert.equal(v.decision.decidedBy, 'cancelled');
    await assert.rejects(gate.decide({ askId: view.askId, digest: view.digest, decision: 'allow-once' }), { code: 'Conflict' });
  });

  test('always allow writes an allow rule before the ask rule, atomically, and later calls pass', async () => {
    await setup({ rules: [{ tool: 'remove-*', agent: 'claude', action: 'ask' }] });
    const verdict = gate.authorize(request());
    const view = await held();
    await gate.decide({ askId: view.askId, digest: view.digest, decision: 'always' });
    assert.equal((await verdict).allowed, true);
    const saved = JSON.parse(await readFile(path, 'utf8')) as PolicyDocument;
    assert.equal(saved.rules.length, 2);
    assert.deepEqual({ ...saved.rules[0], reason: undefined }, { tool: 'remove-object', agent: 'claude', action: 'allow', reason: undefined });
    assert.deepEqual(saved.rules[1], { tool: 'remove-*', agent: 'claude', action: 'ask' });
    assert.deepEqual(changes.map((c) => [c.kind, c.ruleIndex, c.version]), [['always-allow', 0, 2]]);
    const next = await gate.authorize(request({ session: 'another' }));
    assert.equal(next.allowed, true);
    assert.equal(next.decision.ruleIndex, 0);
    const stillAsks = gate.authorize(request({ tool: 'remove-scene' }));
    assert.equal((await held()).tool, 'remove-scene');
    gate.close();
    await stillAsks;
  });

  test('a failed save changes nothing: the call keeps waiting and can still be decided', async () => {
    const gone = join(dir, 'sub');
    await import('node:fs/promises').then((fs) => fs.mkdir(gone));
    await setup(ASK, 60_000, join(gone, 'policy.json'));
    await rm(gone, { recursive: true });
    const verdict = gate.authorize(request());
    const view = await held();
    // The file vanished under Junction: an outside change, so the save is refused rather than recreating it.
    await assert.rejects(gate.decide({ askId: view.askId, digest: view.digest, decision: 'always' }), (e: Error & { code?: string }) => e.code === 'Conflict');
    assert.equal(store.view().version, 1);
    assert.equal(store.view().document.rules.length, 2);
    assert.equal(gate.pending().length, 1);
    await gate.decide({ askId: view.askId, digest: view.digest, decision: 'allow-once' });
    assert.equal((await verdict).allowed, true);
  });

  test('console edits replace the policy only from the current version', async () => {
    await setup(ASK);
    await assert.rejects(store.replace('{"rules":[{"tool":"x","action":"ask","bogus":1}]}', 1), (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && /rule 0/.test(e.message));
    const [a, b] = await Promise.allSettled([store.replace('{"rules":[]}', 1), store.replace('{"rules":[{"action":"deny"}]}', 1)]);
    assert.equal(a.status, 'fulfilled');
    assert.ok(b.status === 'rejected' && (b.reason as { code: string }).code === 'Conflict');
    assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), { rules: [] });
    assert.equal(store.view().version, 2);
  });

  test('a policy change re-judges held calls: released when now allowed or denied; renumbering keeps the digest, another holding rule changes it', async () => {
    await setup({ rules: [{ tool: 'remove-*', action: 'ask' }] });
    const a = gate.authorize(request({ callId: 'a', args: { id: 'a' } }));
    const b = gate.authorize(request({ callId: 'b', tool: 'remove-scene', args: { id: 'b' } }));
    const c = gate.authorize(request({ callId: 'c', tool: 'remove-light', args: { id: 'c' } }));
    for (let i = 0; i < 100 && gate.pending().length < 3; i++) await new Promise((r) => setImmediate(r));
    const before = gate.pending().find((v) => v.callId === 'c')!;
    await store.replace(JSON.stringify({ rules: [{ tool: 'remove-object', action: 'allow' }, { tool: 'remove-scene', action: 'deny' }, { tool: 'remove-*', action: 'ask' }] }), 1);
    const va = await a;
    assert.ok(va.allowed && va.decision.decidedBy === 'policy' && va.decision.ruleIndex === 0);
    assert.deepEqual(va.allowed && va.args, { id: 'a' });
    const vb = await b;
    assert.ok(!vb.allowed && vb.error.code === 'ApprovalDenied' && vb.decision.decidedBy === 'policy');
    const renumbered = gate.pending();
    assert.equal(renumbered.length, 1);
    assert.equal(renumbered[0]!.policyVersion, 2);
    assert.equal(renumbered[0]!.ruleIndex, 2, 'the view follows the rule to its new index');
    assert.equal(renumbered[0]!.digest, before.digest, 'the same rule still holds the same call: a decision on it stays valid');
    await store.replace(JSON.stringify({ rules: [{ tool: 'remove-*', action: 'ask', reason: 'now with a reason' }] }), 2);
    const after = gate.pending();
    assert.notEqual(after[0]!.digest, before.digest, 'another rule holds it now');
    await assert.rejects(gate.decide({ askId: before.askId, digest: before.digest, decision: 'allow-once' }), (e: Error & { code?: string }) => e.code === 'Conflict' && /digest/.test(e.message));
    await gate.decide({ askId: after[0]!.askId, digest: after[0]!.digest, decision: 'allow-once' });
    assert.equal((await c).allowed, true);
  });

  test('allow for this session also releases the same session\'s other calls held by that rule', async () => {
    await setup(ASK);
    const first = gate.authorize(request({ callId: 'x', args: { id: 'x' } }));
    const second = gate.authorize(request({ callId: 'y', args: { id: 'y' } }));
    const elsewhere = gate.authorize(request({ callId: 'z', session: 's2' }));
    for (let i = 0; i < 100 && gate.pending().length < 3; i++) await new Promise((r) => setImmediate(r));
    const x = gate.pending().find((v) => v.callId === 'x')!;
    await gate.decide({ askId: x.askId, digest: x.digest, decision: 'allow-session' });
    assert.equal((await first).allowed, true);
    const v = await second;
    assert.ok(v.allowed && v.decision.decision === 'allow-session');
    assert.deepEqual(gate.pending().map((p) => p.callId), ['z']);
    gate.close();
    assert.equal((await elsewhere).allowed, false);
  });
  test('views of large arguments hold a bounded preview, held or decided; the whole arguments are fetched on demand and the call runs with all of them', async () => {
    await setup(ASK);
    const text = 'x'.repeat(100_000);
    const verdict = gate.authorize(request({ args: { text } }));
    const pending = await held();
    assert.equal(pending.argumentsTruncated, true);
    assert.deepEqual(gate.heldArguments(pending.askId).arguments, { text }, 'the operator can read everything the call will receive');
    const decided = await gate.decide({ askId: pending.askId, digest: pending.digest, decision: 'allow-once' });
    const outcome = await verdict;
    assert.deepEqual(outcome.allowed && outcome.args, { text });
    assert.throws(() => gate.heldArguments(pending.askId), (e: Error & { code?: string }) => e.code === 'ApprovalNotFound');
    for (const [view, limit] of [[pending, 64 * 1024], [decided, 16 * 1024], [gate.views().find((v) => v.askId === pending.askId)!, 16 * 1024]] as const) {
      assert.equal(typeof view.arguments, 'string');
      assert.ok(Buffer.byteLength(JSON.stringify(view.arguments)) <= limit, `at most ${limit} bytes of JSON`);
      assert.ok((view.arguments as string).startsWith('{"text":"xxx'));
      assert.equal(view.argumentBytes, Buffer.byteLength(JSON.stringify({ text })), 'the size still says how large they were');
    }
    const small = gate.authorize(request({ args: { id: 'cube-2' } }));
    const second = await held();
    await gate.decide({ askId: second.askId, digest: second.digest, decision: 'deny', reason: 'no' });
    await small;
    assert.deepEqual(gate.views().find((v) => v.askId === second.askId)!.arguments, { id: 'cube-2' }, 'small arguments are kept whole');
  });
});
