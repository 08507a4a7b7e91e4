/** What the live calls table shows of a call, filtering, and fixed-row-height windowing. Pure. */
import type { CallApprovalView, CallStatus, CallView, PolicyDecisionView } from '../store/types.js';
import type { CallLookup } from '../store/call-map.js';
import { matchesSearch, parseSearch, words } from './search.js';

/**
 * What a call is to the operator: `held` while it waits for them (its status is still running), and
 * `refused` when the policy, the operator or the approval timeout stopped it (it never ran; its status is error).
 */
export type CallState = CallStatus | 'held' | 'refused';
export type StateFilter = CallState | 'all';

export const STATE_FILTERS: ReadonlyArray<{ value: StateFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'running', label: 'Running' },
  { value: 'held', label: 'Held for you' },
  { value: 'ok', label: 'OK' },
  { value: 'error', label: 'Failed' },
  { value: 'refused', label: 'Refused' },
];

/** Pending approvals by call id (reducer `heldCalls`). */
export type HeldCalls = ReadonlyMap<string, CallApprovalView>;

/** For calls the console knows are not held (recorded ones: the trail records a call when it ends). */
export const NONE_HELD: HeldCalls = new Map();

export function callState(call: CallView, held: HeldCalls): CallState {
  if (call.status === 'running') return held.has(call.callId) ? 'held' : 'running';
  if (call.policy?.decision === 'deny') return 'refused';
  return call.status;
}

/** The status the audit trail can filter on for a state (held calls are never recorded: they still run). */
export function recordedStatus(state: StateFilter): CallStatus | undefined {
  if (state === 'all' || state === 'held') return undefined;
  return state === 'refused' ? 'error' : state;
}

export interface CallFilter {
  status: StateFilter;
  text: string;
}

const searchFields = new WeakMap<CallView, string[][]>();

function fieldsOf(call: CallView): string[][] {
  let fields = searchFields.get(call);
  if (!fields) {
    fields = [call.tool, call.agent, call.target, call.errorCode ?? ''].map(words);
    searchFields.set(call, fields);
  }
  return fields;
}

/** Newest first, in the chosen state and matching the search (search.ts: the same semantics as the audit trail's). */
export function filterCalls(calls: CallLookup, ids: readonly string[], filter: CallFilter, held: HeldCalls = NONE_HELD): CallView[] {
  const query = parseSearch(filter.text);
  const out: CallView[] = [];
  for (let i = ids.length - 1; i >= 0; i--) {
    const call = calls.get(ids[i] ?? '');
    if (!call) continue;
    if (filter.status !== 'all' && callState(call, held) !== filter.status) continue;
    if (query.terms.length > 0 && !matchesSearch(query, fieldsOf(call), call.callId)) continue;
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

/** What the call itself took: its duration less the time it waited for the operator. */
export function executionMs(call: CallView): number | undefined {
  if (call.durationMs === undefined) return undefined;
  return Math.max(0, call.durationMs - (call.policy?.heldMs ?? 0));
}

const DECISION_WORDS: Record<PolicyDecisionView['decision'], string> = {
  'allow-once': 'allowed once',
  'allow-session': 'allowed for the session',
  always: 'always allowed',
  deny: 'denied',
};

/** Who decided what, in a few words; undefined when no rule or person decided (the default allow). */
export function decisionLabel(policy: PolicyDecisionView | undefined): string | undefined {
  if (!policy) return undefined;
  switch (policy.decidedBy) {
    case 'operator':
      return `operator: ${DECISION_WORDS[policy.decision]}`;
    case 'timeout':
      return 'nobody: timed out';
    case 'cancelled':
      return 'agent gave up waiting';
    case 'policy':
      if (policy.ruleIndex === null) return undefined;
      return `rule ${policy.ruleIndex}: ${policy.decision === 'deny' ? 'denied' : 'allowed'}`;
  }
}

/**
 * An agent label (`claude-ops/1.2.0 #3`, `http 127.0.0.1 curl/8`) as a name and the part that tells its
 * sessions apart, so a narrow column can cut the name and keep the session.
 */
export function agentParts(agent: string): { name: string; session: string | undefined } {
  const match = /^(.*?)\s+(#\d+)$/.exec(agent);
  return match ? { name: match[1] ?? agent, session: match[2] } : { name: agent, session: undefined };
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
