import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyDocument } from '../../../src-main/contracts/console.js';
import { canonicalJson, compilePolicy, decisionDigest, evaluate, MAX_EQUALS_DEPTH, MAX_REGEX_INPUT, parsePolicyDocument, parsePolicyText, pointerCandidates, type CallFacts } from '../../../src-main/policy/index.js';

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
    assert.throws(() => parsePolicyText('{"rules":[{"action":"ask","arguments":[{"pointer":"/x","exists":true,"equals":1}]}]}', 'f'), /exactly one of equals, regex, exists, greaterThan/);
    assert.throws(() => parsePolicyText('{"rules":{}}', 'f'), / f: rules: .*expected array/);
    assert.throws(() => parsePolicyText('{"rules":[],"extra":1}', 'f'), /unknown field "extra"/);
  });

  test('regexes are RE2: patterns that backtrack badly elsewhere are accepted, syntax RE2 cannot run in linear time is refused', () => {
    const load = (regex: string) => () => parsePolicyDocument({ rules: [{ action: 'deny', arguments: [{ pointer: '/p', regex }] }] }, 'f');
    for (const accepted of ['^(?:[a-z]{1,16}-?){1,16}$', '.*.*x$', '(a+)+$', '(a|aa)*b', 'a*b*c*', '^src/.*\\.ts$', '[(+*]+x']) assert.doesNotThrow(load(accepted), accepted);
    assert.throws(load('(\\w)\\1'), /rule 0, field rules\.0\.arguments\.0\.regex: is not a valid RE2 regular expression: .*invalid escape/);
    assert.throws(load('a(?=b)'), /not a valid RE2 regular expression: .*\(\?=/);
    assert.throws(load('(unclosed'), /not a valid RE2 regular expression/);
    assert.throws(load('(a{1000}){1000}'), /invalid repeat count/);
    assert.throws(load('x'.repeat(300)), /regex: .*256/);
  });

  test('a deeply nested equals value names its rule and field instead of overflowing the stack', () => {
    const deep = (n: number): string => `${'['.repeat(n)}1${']'.repeat(n)}`;
    const text = `{"rules":[{"action":"allow"},{"action":"deny","arguments":[{"pointer":"/p","equals":${deep(100_000)}}]}]}`;
    assert.throws(() => parsePolicyText(text, 'f'), (e: Error & { code?: string }) => e.code === 'PolicyInvalid' && new RegExp(`rule 1, field rules\\.1\\.arguments\\.0\\.equals: nests deeper than ${MAX_EQUALS_DEPTH} levels`).test(e.message));
    assert.doesNotThrow(() => parsePolicyText(`{"rules":[{"action":"deny","arguments":[{"pointer":"/p","equals":${deep(MAX_EQUALS_DEPTH)}}]}]}`, 'f'));
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

  test('JSON pointers follow RFC 6901 and keep every key a case-insensitive reader could take', () => {
    const doc = { 'a/b': { 'm~n': [10, 20] } };
    assert.deepEqual(pointerCandidates(doc, '/a~1b/m~0n/1').values, [20]);
    assert.deepEqual(pointerCandidates(doc, '/a~1b/m~0n/01').values, []);
    assert.deepEqual(pointerCandidates(doc, '').values, [doc]);
    assert.deepEqual(pointerCandidates(doc, '/missing').values, []);
    assert.deepEqual(pointerCandidates({}, '/constructor').values, [], 'inherited properties are not arguments');
    assert.deepEqual(pointerCandidates({ path: 'a', Path: 'b', PATH: { x: 1 } }, '/path').values, ['a', 'b', { x: 1 }]);
  });

  test('the decision digest covers session, tool, canonical arguments, target and the holding rule', () => {
    const base = { session: 's', tool: 't', args: { a: 1, b: [1, { c: 2 }] }, target: { source: 'bridge', connection: 'c1' }, rule: { tool: 't', action: 'ask' } };
    assert.equal(decisionDigest(base), decisionDigest({ ...base, args: { b: [1, { c: 2 }], a: 1 } }));
    for (const changed of [{ session: 's2' }, { tool: 't2' }, { args: { a: 2, b: [1, { c: 2 }] } }, { target: { source: 'bridge', connection: 'c2' } }, { rule: { tool: 't', action: 'ask', reason: 'x' } }]) {
      assert.notEqual(decisionDigest(base), decisionDigest({ ...base, ...changed }));
    }
    assert.equal(canonicalJson({ z: 1, a: { y: null, b: 'x' } }), '{"a":{"b":"x","y":null},"z":1}');
  });
});

describe('matchers that cannot judge a value fail closed', () => {
  const etc: PolicyDocument = { rules: [{ tool: 'read-file', arguments: [{ pointer: '/path', regex: '^/etc/' }], action: 'deny' }] };
  const call = (args: Record<string, unknown>) => facts({ tool: 'read-file', args });

  test('a deny regex on /path refuses the value however it is wrapped or cased', () => {
    assert.equal(run(etc, call({ path: '/etc/passwd' })).action, 'deny');
    assert.equal(run(etc, call({ path: '/home/me' })).action, 'allow');
    for (const args of [{ path: ['/etc/passwd'] }, { path: { 0: '/etc/passwd' } }, { Path: '/etc/passwd' }, { PATH: '/etc/passwd', path: '/home/me' }, { path: null }]) {
      const verdict = run(etc, call(args));
      assert.equal(verdict.action, 'deny', JSON.stringify(args));
    }
    assert.match(run(etc, call({ path: ['/etc/passwd'] })).reason, /argument \/path is an array, not text, so it cannot be judged and the rule applies closed/);
    assert.equal(run({ rules: [{ arguments: [{ pointer: '/p', regex: '^x' }], action: 'ask' }] }, call({ p: { x: 1 } })).action, 'ask', 'ask rules apply closed too');
  });

  test('an allow rule applies only when every candidate holds', () => {
    const allowSrc: PolicyDocument = { rules: [{ arguments: [{ pointer: '/path', regex: '^src/' }], action: 'allow' }, { action: 'ask' }] };
    assert.equal(run(allowSrc, call({ path: 'src/a.ts' })).action, 'allow');
    assert.equal(run(allowSrc, call({ Path: 'src/a.ts' })).action, 'allow', 'a differently cased name a plugin would read still holds');
    for (const args of [{ path: ['src/a.ts'] }, { path: 'src/a.ts', PATH: '/etc/passwd' }, { path: { 0: 'src/a.ts' } }, { path: 'x'.repeat(MAX_REGEX_INPUT + 1) }]) {
      assert.equal(run(allowSrc, call(args)).action, 'ask', JSON.stringify(args).slice(0, 80));
    }
    assert.equal(run({ rules: [{ arguments: [{ pointer: '/force', exists: false }], action: 'allow' }, { action: 'deny' }] }, call({ Force: true })).action, 'deny', 'exists sees any case');
  });

  test('equals: containers where a scalar is expected, and text that reads as the number, fail closed', () => {
    const sphere: PolicyDocument = { rules: [{ arguments: [{ pointer: '/kind', equals: 'sphere' }], action: 'deny' }] };
    assert.equal(run(sphere, call({ kind: ['sphere'] })).action, 'deny');
    assert.equal(run(sphere, call({ Kind: 'sphere' })).action, 'deny');
    assert.equal(run(sphere, call({ kind: 'cube' })).action, 'allow');
    const five: PolicyDocument = { rules: [{ arguments: [{ pointer: '/n', equals: 5 }], action: 'deny' }] };
    assert.equal(run(five, call({ n: '5' })).action, 'deny');
    assert.equal(run({ rules: [{ arguments: [{ pointer: '/n', equals: 5 }], action: 'allow' }, { action: 'ask' }] }, call({ n: '5' })).action, 'ask');
    const nested: unknown = JSON.parse(`${'['.repeat(5000)}1${']'.repeat(5000)}`);
    assert.equal(run({ rules: [{ arguments: [{ pointer: '/o', equals: [[1]] }], action: 'deny' }] }, call({ o: nested })).action, 'allow', 'a deep argument is compared only as deep as the operand');
  });
});

describe('the greaterThan matcher', () => {
  const big: PolicyDocument = { rules: [{ tool: 'spawn', arguments: [{ pointer: '/count', greaterThan: 100 }], action: 'ask' }] };
  test('compares numbers; what is not a number cannot be judged and applies closed', () => {
    assert.equal(run(big, facts({ tool: 'spawn', args: { count: 101 } })).action, 'ask');
    assert.equal(run(big, facts({ tool: 'spawn', args: { count: 100 } })).action, 'allow');
    assert.equal(run(big, facts({ tool: 'spawn', args: {} })).action, 'allow', 'absent');
    assert.match(run(big, facts({ tool: 'spawn', args: { count: 101 } })).reason, /argument \/count is greater than 100/);
    for (const count of ['1000', [1000], null, true]) assert.equal(run(big, facts({ tool: 'spawn', args: { count } })).action, 'ask', JSON.stringify(count));
    const allowSmall: PolicyDocument = { rules: [{ arguments: [{ pointer: '/count', greaterThan: 0 }], action: 'allow' }, { action: 'deny' }] };
    assert.equal(run(allowSmall, facts({ args: { count: 3 } })).action, 'allow');
    assert.equal(run(allowSmall, facts({ args: { count: '3' } })).action, 'deny');
  });
  test('its operand is validated like any other', () => {
    assert.throws(() => parsePolicyText('{"rules":[{"action":"ask","arguments":[{"pointer":"/n","greaterThan":"5"}]}]}', 'f'), /rule 0, field rules\.0\.arguments\.0\.greaterThan/);
    assert.throws(() => parsePolicyText('{"rules":[{"action":"ask","arguments":[{"pointer":"/n","greaterThan":5,"exists":true}]}]}', 'f'), /exactly one of equals, regex, exists, greaterThan/);
  });
});
