/**
 * Fuzzing the approval policy: patterns with nested bounded quantifiers (the shape that made the old
 * backtracking engine stall for tens of seconds on 41 characters) and values that are not strings under
 * string matchers (arrays, objects, null, numbers, other casings of the name). The first class runs
 * through the policy engine and, against a real Junction in a child process, through `/api`: every
 * hostile value is judged and /healthz keeps answering. The second checks the fail-closed verdicts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { PolicyDocument, PolicyRule } from '../../src-main/contracts/console.js';
import { compilePolicy, evaluate, parsePolicyDocument, type CallFacts } from '../../src-main/policy/index.js';
import { startJunctionProcess, type JunctionProcess } from '../support/junction-process.js';

const RUNS = 60;

/** `(?:atom{a,b}sep?){c,d}` nested up to three times, anchored or not: bounded quantifiers only. */
const nestedBounded: fc.Arbitrary<{ pattern: string; repeats: number }> = fc
  .tuple(
    fc.constantFrom('[a-z]', 'a', '\\w', '[a-z0-9]', '.'),
    fc.array(fc.tuple(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 0, max: 16 }), fc.constantFrom('-?', '', '_?', '(?:-|_)?')), { minLength: 1, maxLength: 3 }),
    fc.boolean(),
  )
  .map(([atom, levels, anchored]) => {
    let body: string = atom;
    for (const [max, min, sep] of levels) body = `(?:${body}{${Math.min(min, max)},${max}}${sep})`;
    // RE2 refuses nested repetition that would expand past 1,000 copies (its program stays small).
    return { pattern: anchored ? `^${body}$` : body, repeats: levels.reduce((n, [max]) => n * max, 1) };
  });

/** The pattern's rule when RE2 accepts it: it must, unless its nested counts multiply past 1,000. */
function denyRule({ pattern, repeats }: { pattern: string; repeats: number }): PolicyRule[] | undefined {
  const rules: PolicyRule[] = [{ arguments: [{ pointer: '/v', regex: pattern }], action: 'deny' }];
  try {
    parsePolicyDocument({ rules }, 'fuzz');
  } catch (error) {
    assert.ok(repeats > 1000 && /invalid repeat count/.test((error as Error).message), `/${pattern}/ was refused: ${(error as Error).message}`);
    return undefined;
  }
  return rules;
}

/** Inputs that make backtracking engines try every split: long runs of one letter, then a character that fails. */
const hostileText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('a', 'ab', 'a-'), fc.integer({ min: 20, max: 4000 }), fc.constantFrom('!', '', '-!', '\u0000'))
  .map(([unit, n, tail]) => `${unit.repeat(n)}${tail}`);

const facts = (args: Record<string, unknown>): CallFacts => ({ tool: 'probe', target: { source: 'host' }, agentName: 'fuzz', args });
const decide = (rules: PolicyRule[], args: Record<string, unknown>) => evaluate(compilePolicy(parsePolicyDocument({ rules }, 'fuzz')), facts(args)).action;

describe('fuzz: nested bounded quantifiers', () => {
  test('every such pattern RE2 can bound is accepted and agrees with JavaScript on short inputs', () => {
    fc.assert(
      fc.property(nestedBounded, fc.string({ maxLength: 10 }), (generated, text) => {
        const rules = denyRule(generated);
        if (!rules) return;
        const { pattern } = generated;
        // Short inputs are where the backtracking engine is still fast enough to serve as the oracle.
        assert.equal(decide(rules, { v: text }), new RegExp(pattern).test(text) ? 'deny' : 'allow', `/${pattern}/ on ${JSON.stringify(text)}`);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  test('hostile inputs are judged by the engine', () => {
    fc.assert(
      fc.property(nestedBounded, hostileText, (generated, text) => {
        const rules = denyRule(generated);
        if (!rules) return;
        const verdict = decide(rules, { v: text });
        assert.ok(verdict === 'deny' || verdict === 'allow');
      }),
      { numRuns: RUNS },
    );
  });

  describe('against a real Junction', () => {
    let dir: string;
    let junction: JunctionProcess;
    const patterns = fc.sample(nestedBounded, { numRuns: 40, seed: 27 }).filter((g) => g.repeats <= 1000).map((g) => g.pattern);
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'junction-policy-fuzz-'));
      const path = join(dir, 'policy.json');
      const document: PolicyDocument = { rules: patterns.map((regex) => ({ tool: 'never-such-tool', arguments: [{ pointer: '/v', regex }], action: 'deny' as const })).concat([{ tool: 'server-status', arguments: [{ pointer: '/v', regex: patterns[0]! }], action: 'deny' as const }]) };
      await writeFile(path, JSON.stringify(document));
      junction = await startJunctionProcess([`approval-policy=${path}`]);
    });
    after(async () => {
      await junction?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    test('every hostile value gets a verdict over /api and /healthz answers after each', async () => {
      const samples = fc.sample(hostileText, { numRuns: RUNS, seed: 23 });
      for (const text of samples) {
        const response = await fetch(`${junction.baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: text }) });
        const body = (await response.json()) as { error?: { code: string } };
        // The oracle is the engine in this process: a backtracking one could stall here on these inputs.
        const denied = decide([{ arguments: [{ pointer: '/v', regex: patterns[0]! }], action: 'deny' }], { v: text }) === 'deny';
        assert.equal(body.error?.code === 'ApprovalDenied', denied, JSON.stringify(body).slice(0, 200));
        assert.equal((await fetch(`${junction.baseUrl}/healthz`)).status, 200);
      }
    });
  });
});

/** Any JSON value that is not a string, or a string under another casing of the name. */
const notAString: fc.Arbitrary<unknown> = fc.oneof(fc.constant(null), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.array(fc.jsonValue(), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue(), { maxKeys: 4 }));
const casing: fc.Arbitrary<string> = fc.constantFrom('path', 'Path', 'PATH', 'pAtH');

describe('fuzz: non-string values under string matchers', () => {
  const denyEtc: PolicyRule[] = [{ arguments: [{ pointer: '/path', regex: '^/etc/' }], action: 'deny' }];
  const allowSrc: PolicyRule[] = [{ arguments: [{ pointer: '/path', regex: '^src/' }], action: 'allow' }, { action: 'ask' }];
  const denySphere: PolicyRule[] = [{ arguments: [{ pointer: '/path', equals: 'sphere' }], action: 'deny' }];

  test('a deny regex or equals never lets a value it cannot judge through; an allow rule never matches one', () => {
    fc.assert(
      fc.property(notAString, casing, (value, name) => {
        const args = { [name]: value };
        const text = typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
        // Numbers and booleans are read as their text; everything else cannot be judged by a regex.
        assert.equal(decide(denyEtc, args), text !== undefined && !/^\/etc\//.test(text) ? 'allow' : 'deny', JSON.stringify(args));
        assert.equal(decide(allowSrc, args), text !== undefined && /^src\//.test(text) ? 'allow' : 'ask', JSON.stringify(args));
        // equals judges any scalar (null is not "sphere"); a container where a scalar is expected it cannot.
        assert.equal(decide(denySphere, args), value === null || typeof value !== 'object' ? 'allow' : 'deny', JSON.stringify(args));
      }),
      { numRuns: RUNS * 4 },
    );
  });

  test('a string under any casing is judged as that string, and a second casing cannot smuggle a value past an allow rule', () => {
    fc.assert(
      fc.property(casing, casing, fc.constantFrom('src/a.ts', '/etc/passwd', 'docs/x'), fc.constantFrom('src/b.ts', '/etc/shadow'), (a, b, first, second) => {
        const args = a === b ? { [a]: first } : { [a]: first, [b]: second };
        const values = Object.values(args) as string[];
        assert.equal(decide(denyEtc, args), values.some((v) => v.startsWith('/etc/')) ? 'deny' : 'allow', JSON.stringify(args));
        assert.equal(decide(allowSrc, args), values.every((v) => v.startsWith('src/')) ? 'allow' : 'ask', JSON.stringify(args));
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
