/**
 * The history search's semantics, applied in the console to the calls it holds live (running and held
 * calls the audit trail has not recorded yet), so a search finds the same calls live and recorded. The text
 * is split on white space into terms; a call matches when every term does. A term matches a run of
 * adjacent words of one field (case and accents ignored); its last word, from three characters on, as a
 * prefix: `LOGI` finds `login`, `no-such` finds `no-such-tool`, `tool-1` finds `tool-1` but not `tool-12`.
 * Punctuation only separates words. (The audit trail's index, src-main/audit/search.ts, says the same.)
 * Pure.
 */
const WORDS = /[\p{L}\p{N}\p{Co}]+/gu;
const MIN_PREFIX = 3;

/** A text's words in the index's folded form: lower case, accents removed. */
export function words(text: string): string[] {
  return (text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().match(WORDS) ?? []);
}

export interface SearchQuery {
  /** Each term's words; empty when the text holds none (matches everything). */
  terms: string[][];
}

export function parseSearch(text: string): SearchQuery {
  return { terms: text.split(/\s+/u).map(words).filter((w) => w.length > 0) };
}

function termMatches(term: readonly string[], field: readonly string[]): boolean {
  const last = term.length - 1;
  const prefix = [...(term[last] ?? '')].length >= MIN_PREFIX;
  for (let start = 0; start + term.length <= field.length; start++) {
    let ok = true;
    for (let i = 0; i <= last && ok; i++) {
      const word = field[start + i] ?? '';
      ok = i === last && prefix ? word.startsWith(term[i] ?? '') : word === term[i];
    }
    if (ok) return true;
  }
  return false;
}

/** Whether every term of `query` matches one of `fields` (already split with `words`). */
export function matchesSearch(query: SearchQuery, fields: ReadonlyArray<readonly string[]>): boolean {
  return query.terms.every((term) => fields.some((field) => termMatches(term, field)));
}
