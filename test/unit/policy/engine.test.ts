import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyDocument } from '../../../src-main/contracts/console.js';
import { canonicalJson, compilePolicy, decisionDigest, evaluate, MAX_REGEX_INPUT, parsePolicyDocument, parsePolicyText, regexSafetyProblem, resolvePointer, type CallFacts } from '../../../src-main/policy/index.js';

const facts = (over: Partial<CallFacts> = {}): CallFacts => ({ tool: 'remove-object', target: { source: 'host' }, agentName: 'claude', args: {}, ...over });
const run = (document: PolicyDocument, f: CallFacts) => evaluate(compilePolicy(parsePolicyDocument(document, 'test')), f);

describe('policy validation', () => {
  test('the minimal documented policy is valid', () => {
    assert.deepEqual(parsePolicyText('{"rules":[{"tool":"remove-*","action":"ask"}]}', 'f'), { rules: [{ tool: 'remove-*', action: 'ask' }] });
  });

  test('malformed JSON, unknown fields and bad values name the rule index and field', () => {
    assert.throws(() => parsePolicyText('{"rules":[', 'f'), (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && /not valid JSON/.test(e.message));
    assert.throws(
      () => parsePolicyText('{"rules":[{"tool":"a","action":"allow"},{"tool":"b","action":"ask","colour":"red"}]}', 'f'),
      (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && /rule 1, field rules\.1\.colour: unknown field "colour"/.test(e.message),
    );
    assert.throws(() => parsePolicyText('{"rules":[{"tool":"a","action":"maybe"}]}', 'f'), /rule 0, field rules\.0\.action/);
    assert.throws(() => parsePolicyText('{"rules":[{"action":"ask","arguments":[{"pointer":"x","exists":true}]}]}', 'f'), /rule 0, field rules\.0\.arguments\.0\.pointer/);
    assert.throws(() => parsePolicyText('{"rules":[{"action":"ask","arguments":[{"pointer":"/x","exists":true,"equals":1}]}]}', 'f'), /exactly one of equals, regex or exists/);
    assert.throws(() => parsePolicyText('{"rules":{}}', 'f'), / f: rules: .*expected array/);
    assert.throws(() => parsePolicyText('{"rules":[],"extra":1}', 'f'), /unknown field "extra"/);
  });

  test('catastrophic and invalid regexes are refused at load, with the reason', () => {
    const load = (regex: string) => () => parsePolicyDocument({ rules: [{ action: 'deny', arguments: [{ pointer: '/p', regex }] }] }, 'f');
    assert.throws(load('(a+)+$'), /rule 0, field rules\.0\.arguments\.0\.regex: is refused because it repeats a group that itself repeats/);
    assert.throws(load('(a|aa)*b'), /nested quantifier/);
    assert.throws(load('((a+))*'), /nested quantifier/);
    assert.throws(load('(?:x\\d+)+'), /nested quantifier/);
    assert.throws(load('(\\w)\\1'), /backreference/);
    assert.throws(load('a(?=b)'), /lookaround/);
    assert.throws(load('a*b*c*'), /more than 2 unbounded/);
    assert.throws(load('a{1,1000}b{2,}c+'), /more than 2 unbounded/);
    assert.throws(load('x'.repeat(300)), /longer than 256/);
    assert.throws(load('(unclosed'), /not a valid regular expression/);
    assert.equal(regexSafetyProblem('^src/.*\\.ts$'), undefined);
    assert.equal(regexSafetyProblem('^(?:prod|staging)-[a-z]{1,8}$'), undefined);
    assert.equal(regexSafetyProblem('[(+*]+x'), undefined, 'quantifier characters inside a class are literal');
  });
});

describe('policy evaluation', () => {
  test('first matching rule wins; no match allows', () => {
    const doc: PolicyDocument = { rules: [{ tool: 'remove-*', action: 'deny' }, { tool: '*', action: 'ask' }] };
    assert.deepEqual(run(doc, facts()), { action: 'deny', ruleIndex: 0, reason: "rule 0: tool 'remove-object' matches 'remove-*'" });
    assert.equal(run(doc, facts({ tool: 'add-object' })).action, 'ask');
    assert.deepEqual(run({ rules: [{ tool: 'x', action: 'deny' }] }, facts()), { action: 'allow', ruleIndex: null, reason: 'no rule matched; allowed by default' });
    assert.equal(run({ rules: [] }, facts()).action, 'allow');
  });

  test('source, plugin, project and role match the call target', () => {
    const bridge = facts({ target: { source: 'bridge', plugin: 'scene-e2e', project: 'scene-e2e', role: 'runtime' } });
    const plugin = facts({ target: { source: 'plugin', plugin: 'todo-comments' } });
    assert.equal(run({ rules: [{ source: 'bridge', role: 'runtime', action: 'deny' }] }, bridge).action, 'deny');
    assert.equal(run({ rules: [{ source: 'bridge', role: 'editor', action: 'deny' }] }, bridge).action, 'allow');
    assert.equal(run({ rules: [{ plugin: 'scene-*', action: 'deny' }] }, bridge).action, 'deny');
    assert.equal(run({ rules: [{ project: 'scene-e2e', action: 'deny' }] }, bridge).action, 'deny');
    assert.equal(run({ rules: [{ project: 'scene-e2e', action: 'deny' }] }, plugin).action, 'allow');
    assert.equal(run({ rules: [{ plugin: 'todo-*', source: 'plugin', action: 'ask' }] }, plugin).action, 'ask');
    assert.equal(run({ rules: [{ source: 'host', action: 'deny' }] }, plugin).action, 'allow');
    assert.equal(run({ rules: [{ plugin: '*', action: 'deny' }] }, facts()).action, 'allow', 'host calls have no plugin');
  });

  test('annotations use MCP defaults when a tool publishes none; agent globs match the client name', () => {
    assert.equal(run({ rules: [{ annotations: { destructiveHint: true }, action: 'ask' }] }, facts()).action, 'ask');
    assert.equal(run({ rules: [{ annotations: { destructiveHint: true }, action: 'ask' }] }, facts({ annotations: { destructiveHint: false } })).action, 'allow');
    assert.equal(run({ rules: [{ annotations: { readOnlyHint: true }, action: 'allow' }, { action: 'deny' }] }, facts({ annotations: { readOnlyHint: true } })).action, 'allow');
    assert.equal(run({ rules: [{ agent: 'claude*', action: 'deny' }] }, facts()).action, 'deny');
    assert.equal(run({ rules: [{ agent: 'cursor', action: 'deny' }] }, facts()).action, 'allow');
  });

  test('argument matchers distinguish two calls of one tool', () => {
    const doc: PolicyDocument = {
      rules: [
        { tool: 'add-object', arguments: [{ pointer: '/kind', equals: 'sphere' }], action: 'deny' },
        { tool: 'add-object', arguments: [{ pointer: '/name', regex: '^tmp-' }], action: 'ask' },
        { tool: 'add-object', arguments: [{ pointer: '/tags/0', exists: true }], action: 'ask' },
      ],
    };
    assert.equal(run(doc, facts({ tool: 'add-object', args: { kind: 'sphere', name: 'a' } })).action, 'deny');
    assert.equal(run(doc, facts({ tool: 'add-object', args: { kind: 'cube', name: 'tmp-1' } })).action, 'ask');
    assert.equal(run(doc, facts({ tool: 'add-object', args: { kind: 'cube', name: 'keep' } })).action, 'allow');
    assert.equal(run(doc, facts({ tool: 'add-object', args: { kind: 'cube', name: 'keep', tags: ['x'] } })).ruleIndex, 2);
    assert.equal(run({ rules: [{ arguments: [{ pointer: '/o', equals: { b: 1, a: [1, 2] } }], action: 'deny' }] }, facts({ args: { o: { a: [1, 2], b: 1 } } })).action, 'deny', 'equals compares canonical JSON');
  });

  test('oversized values fail closed: ask and deny rules apply, allow rules do not', () => {
    const long = 'a'.repeat(MAX_REGEX_INPUT + 1);
    assert.equal(run({ rules: [{ arguments: [{ pointer: '/t', regex: '^b' }], action: 'deny' }] }, facts({ args: { t: long } })).action, 'deny');
    assert.equal(run({ rules: [{ arguments: [{ pointer: '/t', regex: '^a' }], action: 'allow' }, { action: 'ask' }] }, facts({ args: { t: long } })).action, 'ask');
  });

  test('JSON pointers follow RFC 6901', () => {
    const doc = { 'a/b': { 'm~n': [10, 20] } };
    assert.deepEqual(resolvePointer(doc, '/a~1b/m~0n/1'), { found: true, value: 20 });
    assert.deepEqual(resolvePointer(doc, '/a~1b/m~0n/01'), { found: false });
    assert.deepEqual(resolvePointer(doc, ''), { found: true, value: doc });
    assert.deepEqual(resolvePointer(doc, '/missing'), { found: false });
    assert.deepEqual(resolvePointer({}, '/constructor'), { found: false }, 'inherited properties are not arguments');
  });

  test('the decision digest covers session, tool, canonical arguments and policy version', () => {
    const base = { session: 's', tool: 't', args: { a: 1, b: [1, { c: 2 }] }, policyVersion: 1 };
    assert.equal(decisionDigest(base), decisionDigest({ ...base, args: { b: [1, { c: 2 }], a: 1 } }));
    for (const changed of [{ session: 's2' }, { tool: 't2' }, { args: { a: 2, b: [1, { c: 2 }] } }, { policyVersion: 2 }]) {
      assert.notEqual(decisionDigest(base), decisionDigest({ ...base, ...changed }));
    }
    assert.equal(canonicalJson({ z: 1, a: { y: null, b: 'x' } }), '{"a":{"b":"x","y":null},"z":1}');
  });
});
