/**
 * Bounded copies of agent-supplied text and values, for everything that outlives a call (the console's
 * call log and traces, the audit queue, presence, decided approvals).
 *
 * V8 represents the result of `slice`, `substring`, `trim` and of `+` / template concatenation as a
 * view into the source string (a sliced or cons string), and `replace` returns its input unchanged when
 * nothing matched, so a 200-character preview of an 8 MB argument keeps all 8 MB alive for as long as
 * the preview lives. `JSON.stringify`, `JSON.parse` and `structuredClone` always produce strings of
 * their own. test/integration/app/memory-retention.test.ts measures this on the heap.
 */

/**
 * Longest agent-supplied label a view keeps (tool name, agent label, session id, error code, a stateless
 * agent's call label): views and per-agent admission keys outlive the call (the console's log, metrics,
 * the audit trail, presence, rate buckets), so they hold bounded copies, never the request's own strings
 * (an agent may name itself or an unknown tool with megabytes). Agents whose labels agree in their first
 * 256 characters share a budget.
 */
export const VIEW_TEXT_CHARS = 256;

/** A flat copy of `text` that shares no storage with it. A UTF-16 round trip is lossless, lone surrogates included. */
export function ownCopy(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

/**
 * Recent short copies by content. Agents send the same labels, tool names and session ids call after
 * call, and each call's views take bounded copies of them: a lookup instead of a copy each time. Keys
 * are the copies themselves, so nothing here keeps a request's string alive; the table is emptied
 * when full, so names an agent invents cannot grow it.
 */
const recentCopies = new Map<string, string>();
const RECENT_COPIES = 1024;

/** At most `maxChars` UTF-16 units of `text`, ending in `…` when cut, in storage of its own. */
export function boundedText(text: string, maxChars: number): string {
  if (text.length > maxChars) return ownCopy(`${text.slice(0, Math.max(0, maxChars - 1))}…`);
  if (text.length > VIEW_TEXT_CHARS) return ownCopy(text);
  let copy = recentCopies.get(text);
  if (copy === undefined) {
    copy = ownCopy(text);
    if (recentCopies.size >= RECENT_COPIES) recentCopies.clear();
    recentCopies.set(copy, copy);
  }
  return copy;
}
