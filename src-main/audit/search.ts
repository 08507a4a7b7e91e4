/**
 * The history search box's text as a full-text query. Semantics, for the operator: the text is split on
 * white space into terms and a call matches when it matches every term. A term matches a run of adjacent
 * words in the call's tool, agent, target, call id, error code, arguments or result (case and accents
 * ignored); its last word, when at least three characters long, as a prefix: `LOGI` finds `login`,
 * `no-such` finds `no-such-tool`, `src/mod` finds `src/module-3.ts`, while `tool-1` finds `tool-1` but not
 * `tool-12` (a one- or two-character prefix would expand to thousands of numbers and ids and cost a scan).
 * Punctuation separates words and is otherwise ignored, so FTS5 operators typed by the operator (quotes,
 * `*`, `^`, `:`, parentheses, AND, OR, NOT, NEAR) are searched as plain words and can never be a syntax
 * error: every term is passed inside an FTS5 string.
 *
 * Filters (status, tool, agent) join the same expression as exact tokens of the index's `facets` column,
 * which the operator's terms never search.
 */
import { SEARCHED_COLUMNS } from './schema.js';

/** Characters the index treats as parts of words (unicode61: letters, numbers, private-use marks). */
const WORD = /[\p{L}\p{N}\p{Co}]/u;
/** The term's last word (the run of word characters before any trailing punctuation). */
const LAST_WORD = /([\p{L}\p{N}\p{Co}]+)[^\p{L}\p{N}\p{Co}]*$/u;
/** Shortest last word searched as a prefix. */
const MIN_PREFIX = 3;

/** The FTS5 MATCH expression for a search text; undefined when the text holds no word at all. */
export function searchExpression(text: string): string | undefined {
  const terms = text.split(/\s+/u).filter((term) => WORD.test(term));
  if (terms.length === 0) return undefined;
  return terms
    .map((term) => {
      const prefix = [...(LAST_WORD.exec(term)?.[1] ?? '')].length >= MIN_PREFIX;
      return `"${term.replaceAll('"', '""')}"${prefix ? '*' : ''}`;
    })
    .join(' ');
}

/** A filter value as the one token the index's `facets` column holds for it (schema.ts): a prefix letter and the value's UTF-8 bytes in hex, as SQLite's hex() writes them. */
export function facetToken(prefix: string, value: string): string {
  return `${prefix}${Buffer.from(value, 'utf8').toString('hex')}`;
}

const TEXT_COLUMNS = `{${SEARCHED_COLUMNS.join(' ')}}`;

/** One MATCH expression for a search: the terms (from `searchExpression`) in the searchable text, and every facet token. */
export function filteredExpression(terms: string, facets: readonly string[]): string {
  return [`${TEXT_COLUMNS} : (${terms})`, ...facets.map((token) => `facets : "${token}"`)].join(' AND ');
}
