/** Filtering and fixed-row-height windowing for the live calls table. Pure. */
import type { CallStatus, CallView } from '../store/types.js';
import type { CallLookup } from '../store/call-map.js';

export interface CallFilter {
  status: CallStatus | 'all';
  text: string;
}

/** Newest first, matching status and (case-insensitively) tool, agent, target, call id or error code. */
export function filterCalls(calls: CallLookup, ids: readonly string[], filter: CallFilter): CallView[] {
  const needle = filter.text.trim().toLowerCase();
  const out: CallView[] = [];
  for (let i = ids.length - 1; i >= 0; i--) {
    const call = calls.get(ids[i] ?? '');
    if (!call) continue;
    if (filter.status !== 'all' && call.status !== filter.status) continue;
    if (needle && ![call.tool, call.agent, call.target, call.callId, call.errorCode ?? ''].some((f) => f.toLowerCase().includes(needle))) continue;
    out.push(call);
  }
  return out;
}

/**
 * Live calls first (they may still be running), then recorded ones the live log no longer or never held,
 * newest first. A call in both keeps its live view.
 */
export function mergeHistory(live: readonly CallView[], recorded: readonly CallView[]): CallView[] {
  if (recorded.length === 0) return live as CallView[];
  const seen = new Set(live.map((c) => c.callId));
  const older = recorded.filter((c) => !seen.has(c.callId));
  return [...live, ...older].sort((a, b) => b.startedAt - a.startedAt);
}

export interface RowWindow {
  first: number;
  /** Exclusive. */
  last: number;
  offset: number;
  totalHeight: number;
}

export function rowWindow(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 8): RowWindow {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { first, last: Math.max(first, last), offset: first * rowHeight, totalHeight: count * rowHeight };
}
