/**
 * Bounded-time regular expressions for argument matchers. JavaScript's engine backtracks, so a pattern
 * such as `(a+)+$` can take exponential time on a crafted argument. A pattern passes only when it has
 * no backreferences, no lookaround, no repeated group that itself repeats or alternates (star height 1),
 * and at most two unbounded quantifiers; the value it is tested against is capped in length as well
 * (see MAX_REGEX_INPUT), which bounds the polynomial worst case that remains.
 */
export const MAX_REGEX_LENGTH = 256;
export const MAX_UNBOUNDED_QUANTIFIERS = 2;
/** Longer values are never tested; the matcher fails closed instead (see engine.ts). */
export const MAX_REGEX_INPUT = 8192;
/** A `{n,m}` with m above this repeats like `*` for backtracking purposes. */
const LARGE_REPEAT = 16;

interface GroupState {
  quantified: boolean;
  alternates: boolean;
}

/** Why the pattern is unsafe, or undefined when it may be used. Syntax is checked separately by `new RegExp`. */
export function regexSafetyProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_REGEX_LENGTH) return `is longer than ${MAX_REGEX_LENGTH} characters`;
  const stack: GroupState[] = [{ quantified: false, alternates: false }];
  let unbounded = 0;
  let lastGroup: GroupState | undefined;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1] ?? '';
      if (/[1-9]/.test(n) || n === 'k') return 'uses a backreference';
      lastGroup = undefined;
      i += 2;
      continue;
    }
    if (c === '[') {
      i = skipClass(pattern, i);
      lastGroup = undefined;
      continue;
    }
    if (c === '(') {
      if (/^\(\?(=|!|<=|<!)/.test(pattern.slice(i, i + 4))) return 'uses lookaround';
      stack.push({ quantified: false, alternates: false });
      lastGroup = undefined;
      // `(?:` and `(?<name>` open groups too; their `?` is not a quantifier.
      const prefix = /^\((\?:|\?<[A-Za-z_$][\w$]*>)?/.exec(pattern.slice(i))!;
      i += prefix[0].length;
      continue;
    }
    if (c === ')') {
      lastGroup = stack.length > 1 ? stack.pop() : undefined;
      // What repeats or alternates inside a group makes its parent ambiguous under repetition too.
      if (lastGroup) {
        const parent = stack.at(-1)!;
        parent.quantified ||= lastGroup.quantified;
        parent.alternates ||= lastGroup.alternates;
      }
      i += 1;
      continue;
    }
    if (c === '|') {
      stack.at(-1)!.alternates = true;
      lastGroup = undefined;
      i += 1;
      continue;
    }
    const quantifier = quantifierAt(pattern, i);
    if (quantifier) {
      const current = stack.at(-1)!;
      current.quantified = true;
      if (quantifier.unbounded) {
        unbounded += 1;
        if (lastGroup && (lastGroup.quantified || lastGroup.alternates)) return 'repeats a group that itself repeats or alternates (nested quantifier)';
        if (unbounded > MAX_UNBOUNDED_QUANTIFIERS) return `has more than ${MAX_UNBOUNDED_QUANTIFIERS} unbounded quantifiers`;
      }
      // A quantified group counts as a quantifier of the group around it.
      lastGroup = undefined;
      i += quantifier.length;
      continue;
    }
    lastGroup = undefined;
    i += 1;
  }
  return undefined;
}

function skipClass(pattern: string, start: number): number {
  let i = start + 1;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i + 1;
}

function quantifierAt(pattern: string, i: number): { length: number; unbounded: boolean } | undefined {
  const c = pattern[i];
  let length: number;
  let unbounded: boolean;
  if (c === '*' || c === '+') {
    length = 1;
    unbounded = true;
  } else if (c === '?') {
    length = 1;
    unbounded = false;
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (!m) return undefined;
    length = m[0].length;
    unbounded = m[2] !== undefined && (m[3] === '' || Number(m[3]) > LARGE_REPEAT);
  } else {
    return undefined;
  }
  // A lazy or possessive-looking suffix belongs to the same quantifier.
  if (pattern[i + length] === '?') length += 1;
  return { length, unbounded };
}
