/** The answer to `completion/complete` from a list of candidates, bounded as the MCP spec requires. */
import type { CompleteResult } from '@modelcontextprotocol/sdk/types.js';

/** The spec allows at most 100 values per answer. */
export const MAX_COMPLETION_VALUES = 100;

/** Candidates starting with `prefix` (case-sensitive, as paths and tool names are), sorted, each once. */
export function completionOf(candidates: Iterable<string>, prefix: string): CompleteResult['completion'] {
  const matches = [...new Set(candidates)].filter((c) => c.startsWith(prefix)).sort();
  return { values: matches.slice(0, MAX_COMPLETION_VALUES), total: matches.length, hasMore: matches.length > MAX_COMPLETION_VALUES };
}
