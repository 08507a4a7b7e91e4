/**
 * The history search box's text as a full-text query. Semantics, for the operator: the text is split on
 * white space into terms and a call matches when it matches every term. A term matches a run of adjacent
 * words in the call's tool, agent, target, error code, arguments or result (case and accents ignored), or
 * the call's id as contracts/call-id-search.ts says (the id itself, or its beginning from eight
 * characters on; queries.ts looks ids up in their own index); its last word, when at least three
 * characters long, as a prefix: `LOGI` finds `login`,
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

/**
 * The words of the index that begin with `prefix` (already in the index's folded form), in order; undefined
 * when there are more than the caller cares to list.
 */
export type ExpandPrefix = (prefix: string) => readonly string[] | undefined;

/** A word the tokenizer folds to its lower case and nothing else: only then is the prefix known in the index's own form. */
const FOLDS_TO_LOWER_CASE = /^[A-Za-z0-9]+$/;

/**
 * One white-space separated term of a search: its text, and the FTS5 MATCH expression for it, undefined
 * when a prefix in it stands for no word of the index (the term can then match a call id only).
 */
export interface SearchTerm {
  text: string;
  expression: string | undefined;
}

/**
 * The terms of a search text, each with its FTS5 MATCH expression; empty when the text holds no word at
 * all, and so matches nothing.
 *
 * With `expand`, a prefix becomes the words it stands for, OR-ed: FTS5 answers a prefix by merging the
 * full lists of every word that has it before returning the first row, a cost in proportion to how often
 * those words occur (a tenth of a second for a word in every call of a million), while an OR of words is
 * walked lazily, newest first, and stops at a full page. A prefix standing for more words than `expand`
 * lists (typically digits of numbers and ids), or not in plain ASCII letters and digits (whose folding
 * only the tokenizer knows), stays an FTS5 prefix: same rows, FTS5's cost.
 */
export function searchTerms(text: string, expand?: ExpandPrefix): SearchTerm[] {
  return text
    .split(/\s+/u)
    .filter((term) => WORD.test(term))
    .map((term) => ({ text: term, expression: termExpression(term, expand) }));
}

/** The terms' expressions as one, all required; undefined when there is none, or one that can match no word. */
export function joinedExpression(terms: readonly SearchTerm[]): string | undefined {
  if (terms.length === 0 || terms.some((term) => term.expression === undefined)) return undefined;
  return terms.map((term) => term.expression).join(' ');
}

/** The FTS5 MATCH expression for a whole search text (every term in the indexed text); undefined as `joinedExpression` says. */
export function searchExpression(text: string, expand?: ExpandPrefix): string | undefined {
  return joinedExpression(searchTerms(text, expand));
}

const quoted = (phrase: string) => `"${phrase.replaceAll('"', '""')}"`;

function termExpression(term: string, expand: ExpandPrefix | undefined): string | undefined {
  const last = LAST_WORD.exec(term);
  const word = last?.[1] ?? '';
  if ([...word].length < MIN_PREFIX) return quoted(term);
  const words = expand && FOLDS_TO_LOWER_CASE.test(word) ? expand(word.toLowerCase()) : undefined;
  if (words === undefined) return `${quoted(term)}*`;
  if (words.length === 0) return undefined;
  const at = last!.index;
  const phrases = words.map((whole) => quoted(`${term.slice(0, at)}${whole}${term.slice(at + word.length)}`));
  return phrases.length === 1 ? phrases[0] : `(${phrases.join(' OR ')})`;
}

/** A filter value as the one token the index's `facets` column holds for it (schema.ts): a prefix letter and the value's UTF-8 bytes in hex, as SQLite's hex() writes them. */
export function facetToken(prefix: string, value: string): string {
  return `${prefix}${Buffer.from(value, 'utf8').toString('hex')}`;
}

const TEXT_COLUMNS = `{${SEARCHED_COLUMNS.join(' ')}}`;

/** One MATCH expression for a search: the terms (from `searchExpression`) in the searchable text, if any, and every facet token. */
export function filteredExpression(terms: string | undefined, facets: readonly string[]): string {
  return [...(terms === undefined ? [] : [`${TEXT_COLUMNS} : (${terms})`]), ...facets.map((token) => `facets : "${token}"`)].join(' AND ');
}
