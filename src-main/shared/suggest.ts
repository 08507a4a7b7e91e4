/**
 * "Did you mean" for names a person or an agent typed: the known names closest to the unknown one by
 * edit distance, within a bound that grows with its length so a short typo is caught and an unrelated
 * word is not matched to anything.
 */

/** Levenshtein distance, case-insensitive (kebab-case names differ from their typos in letters, not case). */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
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

/** Up to `max` known names within reach of `unknown`, nearest first (ties keep `known`'s order). */
export function closestNames(unknown: string, known: Iterable<string>, max = 3): string[] {
  const reach = Math.max(2, Math.floor(unknown.length / 3));
  return [...known]
    .map((name) => ({ name, d: name.toLowerCase().includes(unknown.toLowerCase()) && unknown.length >= 3 ? 1 : distance(unknown, name) }))
    .filter((c) => c.d <= reach)
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
