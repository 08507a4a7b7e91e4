/**
 * The history search's semantics, applied in the console to the calls it holds live (running and held
 * calls the audit trail has not recorded yet), so a search finds the same calls live and recorded. The text
 * is split on white space into terms; a call matches when every term does. A term matches a run of
 * adjacent words of one field (case and accents ignored); its last word, from three characters on, as a
 * prefix: `LOGI` finds `login`, `no-such` finds `no-such-tool`, `tool-1` finds `tool-1` but not `tool-12`.
 * Punctuation only separates words. Or it matches the call's id as contracts/call-id-search.ts says (the
 * id, or its beginning from eight characters on). (The audit trail's index, src-main/audit/search.ts,
 * says the same.) Pure.
 */
import { callIdTerm, matchesCallId, type CallIdTerm } from '../../../src-main/contracts/call-id-search.js';

const WORDS = /[\p{L}\p{N}\p{Co}]+/gu;
const MIN_PREFIX = 3;

/** A text's words in the index's folded form: lower case, accents removed. */
export function words(text: string): string[] {
  return (text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().match(WORDS) ?? []);
}

export interface SearchTerm {
  words: string[];
  /** The call ids the term stands for. */
  ids: CallIdTerm;
}

export interface SearchQuery {
  /** The terms that hold a word; empty when the text holds none (matches everything). */
  terms: SearchTerm[];
}

export function parseSearch(text: string): SearchQuery {
  return {
    terms: text.split(/\s+/u).flatMap((term) => {
      const termWords = words(term);
      return termWords.length > 0 ? [{ words: termWords, ids: callIdTerm(term) }] : [];
    }),
  };
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

/** Whether every term of `query` matches one of `fields` (already split with `words`) or the call's id. */
export function matchesSearch(query: SearchQuery, fields: ReadonlyArray<readonly string[]>, callId: string): boolean {
  return query.terms.every((term) => matchesCallId(callId, term.ids) || fields.some((field) => termMatches(term.words, field)));
}
