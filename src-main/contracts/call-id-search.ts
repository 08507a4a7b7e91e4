/**
 * How the history search matches a call's id, the same in the audit trail (src-main/audit/queries.ts)
 * and among the calls the console holds live (src-renderer/src/lib/search.ts): a search term matches
 * a call whose id is the term, or begins with it once the term is MIN_CALL_ID_PREFIX characters long
 * (the term's case ignored: Junction makes its ids in lower case). An operator pastes an id, or its first characters, from the console, a log line or a
 * plugin's trace; a few characters of a time-ordered id would only name a stretch of time, which the
 * history's time window does better.
 *
 * The id is not one of the words the full-text index holds: each id is unique, and its random words
 * took FTS5 about as much work per call as all the other words of a call together (4.1 of 8.8 µs
 * measured over 100,000 calls shaped as bench:audit's). The id's own b-tree index answers the same
 * question with one seek.
 */

/** Shortest term matched as the beginning of an id: an id's first group (its first 32 bits of time). */
export const MIN_CALL_ID_PREFIX = 8;

/** A term as the call ids it matches: `id` itself, or every id that begins with it when `prefix`. */
export interface CallIdTerm {
  id: string;
  prefix: boolean;
}

/** `term` (one white-space separated term of the search text) as the ids it stands for. */
export function callIdTerm(term: string): CallIdTerm {
  const id = term.toLowerCase();
  return { id, prefix: [...id].length >= MIN_CALL_ID_PREFIX };
}

/** Whether `callId` is one the term stands for. */
export function matchesCallId(callId: string, { id, prefix }: CallIdTerm): boolean {
  return prefix ? callId.startsWith(id) : callId === id;
}
