/**
 * The argument matchers of the approval policy, one table entry per kind: how its operand is validated,
 * how it is compiled, how it judges the values a pointer found and how it reads to the operator. The
 * table is keyed by the contract's `PolicyMatcherOperands`, so a kind added there does not compile until
 * it has an entry here; nothing falls through to another kind's test.
 *
 * A judgement is one of three: the value holds, fails, or cannot be judged (a regex on an array, a number
 * comparison on text). What cannot be judged, and a pointer that finds several candidates because a
 * plugin may read names in any case (.NET binds `Path` to `path`), are decided closed: a deny or ask rule
 * applies when any candidate holds or cannot be judged; an allow rule applies only when every candidate
 * holds. Pure: no I/O.
 */
import { createRequire } from 'node:module';
import { z } from 'zod';
import type * as Re2 from 're2js';
import type { PolicyArgumentMatcher, PolicyMatcherKind, PolicyMatcherOperands } from '../contracts/index.js';
import { boundedJsonEquals, jsonDepthExceeds, jsonPreview } from './json-values.js';

/** Longest regex source accepted; RE2 bounds the time, this bounds the program it compiles to. */
export const MAX_REGEX_LENGTH = 256;
/** Longer values are never tested: they cannot be judged, so the matcher decides closed. */
export const MAX_REGEX_INPUT = 8192;
/** Deepest `equals` operand; deeper ones are refused when the policy is read. */
export const MAX_EQUALS_DEPTH = 32;
/** A pointer that fans out into more case-insensitive candidates than this cannot be judged. */
const MAX_CANDIDATES = 64;

type Judgement = { verdict: 'holds' | 'fails' } | { verdict: 'unjudgeable'; why: string };

/** Judges the values a pointer found (empty: absent). `closed`: the rule denies or asks. */
export type CompiledMatcher = (candidates: readonly unknown[], closed: boolean) => { holds: boolean; because: string };

interface MatcherKindSpec<K extends PolicyMatcherKind> {
  operand: z.ZodType<PolicyMatcherOperands[K]>;
  compile(operand: PolicyMatcherOperands[K], at: string): CompiledMatcher;
}

const HOLDS: Judgement = { verdict: 'holds' };
const FAILS: Judgement = { verdict: 'fails' };

function kindOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The closed combination for kinds that judge values: absent fails; otherwise deny/ask hold when any
 * candidate holds or cannot be judged, allow holds only when all hold.
 */
function byValue(at: string, test: string, judge: (value: unknown) => Judgement): CompiledMatcher {
  return (candidates, closed) => {
    if (candidates.length === 0) return { holds: false, because: `${at} is absent` };
    const judgements = candidates.map(judge);
    const unjudgeable = judgements.find((j): j is Extract<Judgement, { verdict: 'unjudgeable' }> => j.verdict === 'unjudgeable');
    const several = candidates.length > 1 ? ` (${candidates.length} arguments match ${at} ignoring case)` : '';
    if (closed) {
      if (judgements.some((j) => j.verdict === 'holds')) return { holds: true, because: `${at} ${test}${several}` };
      if (unjudgeable) return { holds: true, because: `${at} ${unjudgeable.why} and the rule applies closed` };
      return { holds: false, because: '' };
    }
    return judgements.every((j) => j.verdict === 'holds') ? { holds: true, because: `${at} ${test}` } : { holds: false, because: '' };
  };
}

/**
 * RE2 is loaded by the first regex rule (about 2 MB resident once loaded; most policies have none), and
 * synchronously, because a policy is validated and compiled synchronously. Its CommonJS build, which
 * nothing else in Junction loads, so its classes are the only ones `instanceof` meets.
 */
let re2: typeof Re2 | undefined;
const loadRe2 = (): typeof Re2 => (re2 ??= createRequire(import.meta.url)('re2js') as typeof Re2);

function compileRegex(source: string): Re2.RE2JS {
  return loadRe2().RE2JS.compile(source);
}

/** `why` completes "argument /p …" and says why the value is not judged. */
function unjudgeable(why: string): Judgement {
  return { verdict: 'unjudgeable', why };
}

function regexText(value: unknown, source: string): string | Judgement {
  if (typeof value === 'string') return value.length > MAX_REGEX_INPUT ? unjudgeable(`is longer than ${MAX_REGEX_INPUT} characters, so /${source}/ is not run`) : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return unjudgeable(`is ${kindOfValue(value)}, not text, so it cannot be judged`);
}

const json = z.unknown().superRefine((value, ctx) => {
  if (jsonDepthExceeds(value, MAX_EQUALS_DEPTH)) ctx.addIssue({ code: 'custom', message: `nests deeper than ${MAX_EQUALS_DEPTH} levels` });
});

const MATCHER_KINDS: { readonly [K in PolicyMatcherKind]: MatcherKindSpec<K> } = {
  equals: {
    operand: json,
    compile: (operand, at) =>
      byValue(at, `equals ${jsonPreview(operand)}`, (value) => {
        const scalar = (v: unknown) => v === null || typeof v !== 'object';
        if (scalar(operand) !== scalar(value)) return unjudgeable(`is ${kindOfValue(value)} where ${jsonPreview(operand)} was expected, so it cannot be judged`);
        if (boundedJsonEquals(value, operand)) return HOLDS;
        // "5" and 5 differ as JSON, yet a plugin may coerce one into the other.
        if (scalar(value) && value !== null && operand !== null && String(value) === String(operand)) {
          return unjudgeable(`is ${kindOfValue(value)} that a plugin may read as ${jsonPreview(operand)}`);
        }
        return FAILS;
      }),
  },
  regex: {
    operand: z
      .string()
      .min(1)
      .max(MAX_REGEX_LENGTH)
      .superRefine((source, ctx) => {
        try {
          compileRegex(source);
        } catch (error) {
          if (!(error instanceof loadRe2().RE2JSException)) throw error;
          ctx.addIssue({ code: 'custom', message: `is not a valid RE2 regular expression: ${error.message}` });
        }
      }),
    compile: (operand, at) => {
      const regex = compileRegex(operand);
      return byValue(at, `matches /${operand}/`, (value) => {
        const text = regexText(value, operand);
        if (typeof text !== 'string') return text;
        return regex.test(text) ? HOLDS : FAILS;
      });
    },
  },
  exists: {
    operand: z.boolean(),
    compile: (operand, at) => (candidates) => ({ holds: candidates.length > 0 === operand, because: `${at} ${operand ? 'exists' : 'is absent'}` }),
  },
  greaterThan: {
    operand: z.number().finite(),
    compile: (operand, at) =>
      byValue(at, `is greater than ${operand}`, (value) => {
        if (typeof value !== 'number') return unjudgeable(`is ${kindOfValue(value)}, not a number, so it cannot be judged`);
        return value > operand ? HOLDS : FAILS;
      }),
  },
};

export const MATCHER_KIND_NAMES = Object.keys(MATCHER_KINDS) as PolicyMatcherKind[];

/** The one kind a matcher gives (validation ensured there is exactly one). */
export function matcherKind(matcher: PolicyArgumentMatcher): PolicyMatcherKind {
  const kind = MATCHER_KIND_NAMES.find((k) => matcher[k] !== undefined);
  if (!kind) throw new Error(`matcher on ${matcher.pointer} gives none of ${MATCHER_KIND_NAMES.join(', ')}`);
  return kind;
}

function compileKind<K extends PolicyMatcherKind>(kind: K, operand: PolicyMatcherOperands[K], at: string): CompiledMatcher {
  return MATCHER_KINDS[kind].compile(operand, at);
}

/** The matcher as a function of the pointer's candidates. */
export function compileMatcher(matcher: PolicyArgumentMatcher): { pointer: string; judge: CompiledMatcher } {
  const kind = matcherKind(matcher);
  const at = `argument ${matcher.pointer || '(root)'}`;
  return { pointer: matcher.pointer, judge: compileKind(kind, matcher[kind] as PolicyMatcherOperands[typeof kind], at) };
}

/** The operand schemas, for the document schema (rules.ts). */
export function operandSchemas(): { [K in PolicyMatcherKind]: z.ZodType<PolicyMatcherOperands[K]> } {
  return Object.fromEntries(MATCHER_KIND_NAMES.map((k) => [k, MATCHER_KINDS[k].operand])) as { [K in PolicyMatcherKind]: z.ZodType<PolicyMatcherOperands[K]> };
}

/**
 * RFC 6901 pointer resolution that keeps every value a case-insensitive reader could take: at each object
 * step the exact key and every key equal to it ignoring case. `''` is the whole value; `~1` is `/`, `~0` is
 * `~`; array steps are decimal indexes. More than MAX_CANDIDATES is reported as `tooMany`.
 */
export function pointerCandidates(value: unknown, pointer: string): { values: unknown[]; tooMany: boolean } {
  let current: unknown[] = [value];
  if (pointer === '') return { values: current, tooMany: false };
  for (const raw of pointer.slice(1).split('/')) {
    const step = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const lower = step.toLowerCase();
    const nextValues: unknown[] = [];
    for (const item of current) {
      if (Array.isArray(item)) {
        if (/^(0|[1-9]\d*)$/.test(step) && Number(step) < item.length) nextValues.push(item[Number(step)]);
      } else if (item !== null && typeof item === 'object') {
        for (const key of Object.keys(item)) if (key === step || key.toLowerCase() === lower) nextValues.push((item as Record<string, unknown>)[key]);
      }
    }
    if (nextValues.length > MAX_CANDIDATES) return { values: nextValues.slice(0, MAX_CANDIDATES), tooMany: true };
    current = nextValues;
  }
  return { values: current, tooMany: false };
}
