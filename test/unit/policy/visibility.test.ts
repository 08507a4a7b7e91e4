/** Visibility rules: what the policy file may say (refusals at load) and how hide/show order against each other and allow/ask/deny. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ListingFacts, PolicyDocument, PolicyRule } from '../../../src-main/contracts/index.js';
import { analysePolicy, compilePolicy, contentVisibilityOf, evaluate, parsePolicyDocument, parsePolicyText, PolicyStore, visibilityJudge, visibilityOf } from '../../../src-main/policy/index.js';

const listing = (over: Partial<ListingFacts> = {}): ListingFacts => ({ tool: 'remove-object', target: { source: 'bridge', plugin: 'GameA', project: 'GameA', role: 'editor' }, agentName: 'claude', ...over });
const compiled = (rules: PolicyRule[]) => compilePolicy(parsePolicyDocument({ rules }, 'test'));
const isInvalid = (pattern: RegExp) => (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && pattern.test(e.message);

describe('visibility rules at load', () => {
  test('a rule that hides every tool from every agent is refused, unless show rules come first', () => {
    for (const rule of [{ action: 'hide' }, { tool: '*', action: 'hide' }, { agent: '*', tool: '*', action: 'hide' }]) {
      assert.throws(() => parsePolicyText(JSON.stringify({ rules: [{ tool: 'a', action: 'ask' }, rule] }), 'f'), isInvalid(/rule 1, field rules\.1\.action: this hide rule hides every tool from every agent/));
    }
    // An allow-list: what is shown first, then everything else hidden.
    assert.doesNotThrow(() => parsePolicyText('{"rules":[{"tool":"server-status","action":"show"},{"action":"hide"}]}', 'f'));
    assert.doesNotThrow(() => parsePolicyText('{"rules":[{"agent":"reader","action":"hide"}]}', 'f'), 'one agent may be given nothing');
  });

  test('visibility cannot match arguments, and unknown annotations are refused by name', () => {
    assert.throws(() => parsePolicyText('{"rules":[{"tool":"a","action":"hide","arguments":[{"pointer":"/x","exists":true}]}]}', 'f'), isInvalid(/rule 0, field rules\.0\.arguments: a hide rule cannot match arguments/));
    assert.throws(() => parsePolicyText('{"rules":[{"annotations":{"readOnly":true},"action":"hide"}]}', 'f'), isInvalid(/rule 0, field rules\.0\.annotations\.readOnly: unknown field "readOnly"/));
    assert.throws(() => parsePolicyText('{"rules":[{"annotations":{"readOnlyHint":"yes"},"action":"hide"}]}', 'f'), isInvalid(/rule 0, field rules\.0\.annotations\.readOnlyHint/));
  });
});

describe('visibility order and precedence', () => {
  test('the first matching visibility rule decides; none shows the tool', () => {
    const policy = compiled([
      { agent: 'reader', tool: 'list-*', action: 'show' },
      { agent: 'reader', annotations: { readOnlyHint: false }, action: 'hide' },
      { tool: 'list-objects', action: 'hide' },
    ]);
    assert.deepEqual(visibilityOf(policy, listing({ agentName: 'reader', tool: 'list-objects' })), { visible: true, ruleIndex: 0 });
    assert.deepEqual(visibilityOf(policy, listing({ agentName: 'reader' })), { visible: false, ruleIndex: 1 }, 'absent annotations default to not read-only');
    assert.deepEqual(visibilityOf(policy, listing({ agentName: 'reader', annotations: { readOnlyHint: true } })), { visible: true, ruleIndex: null });
    assert.deepEqual(visibilityOf(policy, listing({ tool: 'list-objects' })), { visible: false, ruleIndex: 2 });
  });

  test('approval rules do not decide visibility, and visibility rules do not decide calls', () => {
    const policy = compiled([{ tool: 'remove-*', action: 'deny' }, { tool: 'remove-*', action: 'show' }, { tool: 'remove-*', action: 'hide' }, { tool: 'remove-*', action: 'ask' }]);
    assert.deepEqual(visibilityOf(policy, listing()), { visible: true, ruleIndex: 1 }, 'deny before show does not hide');
    assert.equal(evaluate(policy, { ...listing(), args: {} }).ruleIndex, 0);
    const onlyVisibility = compiled([{ tool: 'remove-*', action: 'hide' }]);
    assert.deepEqual(evaluate(onlyVisibility, { ...listing(), args: {} }), { action: 'allow', ruleIndex: null, reason: 'no approval policy rules; allowed' });
  });

  test('rules match source, plugin, project and role of where the tool would run, read only when a rule needs it', () => {
    let routed = 0;
    const facts = (target: ListingFacts['target']): ListingFacts => ({ tool: 'run', agentName: 'a', get target() { routed += 1; return target; } });
    const byTool = visibilityJudge(compiled([{ tool: 'x', action: 'hide' }]));
    assert.equal(byTool.visible(facts({ source: 'host' })), true);
    assert.equal(routed, 0, 'a tool glob alone never routes');
    const policy = compiled([{ source: 'bridge', role: 'runtime', action: 'hide' }, { project: 'Game?', plugin: 'ed*', action: 'hide' }]);
    assert.equal(visibilityOf(policy, facts({ source: 'bridge', role: 'runtime' })).visible, false);
    assert.equal(visibilityOf(policy, facts({ source: 'bridge', role: 'editor', plugin: 'editor-1', project: 'GameB' })).visible, false);
    assert.equal(visibilityOf(policy, facts({ source: 'bridge', role: 'editor', plugin: 'editor-1', project: 'Other' })).visible, true);
    assert.equal(visibilityOf(policy, facts({ source: 'host' })).visible, true);
    assert.equal(visibilityJudge(compiled([{ tool: 'x', action: 'show' }])).hidesAny, false, 'show rules alone hide nothing');
  });

  test("a plugin's prompts and resources follow the visibility rules that name no tool and no annotations", () => {
    const policy = compiled([{ tool: 'x', action: 'hide' }, { annotations: { readOnlyHint: false }, action: 'hide' }, { agent: 'writer', project: 'GameA', action: 'hide' }]);
    const target = { source: 'bridge' as const, plugin: 'GameA', project: 'GameA', role: 'editor' as const };
    assert.deepEqual(contentVisibilityOf(policy, { agentName: 'writer', target }), { visible: false, ruleIndex: 2 });
    assert.deepEqual(contentVisibilityOf(policy, { agentName: 'reader', target }), { visible: true, ruleIndex: null }, 'tool and annotation rules are about tools only');
  });

  test('analysis compares rules of one family only', () => {
    const rules: PolicyRule[] = [{ tool: '*', action: 'deny' }, { tool: 'a', action: 'hide' }, { tool: 'a', action: 'show' }];
    assert.deepEqual(analysePolicy(rules).map((f) => [f.ruleIndex, f.kind, f.byRule]), [[2, 'shadowed', 1]]);
  });
});

describe('the "agents see this" switch', () => {
  const store = (document: PolicyDocument, saved: string[] = []) => new PolicyStore({ path: '/policy.json', document, persistence: { save: async (text) => void saved.push(text) } });

  test('off writes one hide rule first; on takes exactly that rule out; switching to the state in force writes nothing', async () => {
    const saved: string[] = [];
    const own: PolicyRule = { tool: 'list-\\*', agent: 'x', action: 'hide' };
    const policy = store({ rules: [{ action: 'show', tool: 'list-*' }, own] }, saved);
    const off = await policy.setToolVisible('list-*', false, 1);
    assert.deepEqual(off.document.rules[0], { tool: 'list-\\*', action: 'hide', reason: 'hidden from agents by the operator' }, 'the name is escaped, so it hides that tool only');
    assert.equal(visibilityOf(policy.current().compiled, listing({ tool: 'list-*' })).visible, false);
    assert.equal(visibilityOf(policy.current().compiled, listing({ tool: 'list-objects' })).visible, true);
    assert.equal((await policy.setToolVisible('list-*', false, off.version)).version, off.version, 'already hidden: nothing written');
    const on = await policy.setToolVisible('list-*', true, off.version);
    assert.deepEqual(on.document.rules, [{ action: 'show', tool: 'list-*' }, own], 'a hand-written hide with other matchers stays');
    assert.equal(saved.length, 2);
  });

  test('a switch based on an older version is refused with Conflict', async () => {
    const policy = store({ rules: [] });
    await policy.setToolVisible('a', false, 1);
    await assert.rejects(policy.setToolVisible('b', false, 1), (e: Error & { code?: string }) => e.code === 'Conflict');
    assert.deepEqual(policy.view().document.rules.map((r) => r.tool), ['a']);
  });
});
