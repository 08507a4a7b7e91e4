/**
 * "Did you mean" for names a person or an agent typed: the known names closest to the unknown one by
 * edit distance, within a bound that grows with its length so a short typo is caught and an unrelated
 * word is not matched to anything.
 */

/** Levenshtein distance of two lower-cased names. */
function distance(s: string, t: string): number {
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[t.length]!;
}

/**
 * Longest unknown name worth a suggestion. The distance costs the product of the two lengths: an agent's
 * megabyte-long tool name measured against every tool held the event loop for seconds per megabyte.
 */
const MAX_SUGGESTED_CHARS = 256;

/**
 * Up to `max` known names within reach of `unknown`, nearest first (ties keep `known`'s order); case-insensitive,
 * since kebab-case names differ from their typos in letters, not case. A known name that contains the unknown
 * one (three characters or more) is at distance 1.
 */
export function closestNames(unknown: string, known: Iterable<string>, max = 3): string[] {
  if (unknown.length > MAX_SUGGESTED_CHARS) return [];
  const reach = Math.max(2, Math.floor(unknown.length / 3));
  const wanted = unknown.toLowerCase();
  const near: Array<{ name: string; d: number }> = [];
  for (const name of known) {
    const lower = name.toLowerCase();
    if (unknown.length >= 3 && lower.includes(wanted)) near.push({ name, d: 1 });
    // The distance is at least the difference in length, so a name that differs by more is out of reach uncomputed.
    else if (Math.abs(lower.length - wanted.length) <= reach) {
      const d = distance(wanted, lower);
      if (d <= reach) near.push({ name, d });
    }
  }
  return near
    .sort((x, y) => x.d - y.d)
    .slice(0, max)
    .map((c) => c.name);
}

/** ` Did you mean 'a' or 'b'?` for suggestions from closestNames, or the empty string; ready to append to a message. */
export function didYouMean(suggestions: readonly string[]): string {
  const names = suggestions.map((n) => `'${n}'`);
  if (names.length === 0) return '';
  return ` Did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?`;
}
