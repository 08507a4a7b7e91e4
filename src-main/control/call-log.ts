/**
 * The console's memory of recent calls: a bounded, insertion-ordered log of CallViews plus bounded
 * argument/result details. Pure data structure, no I/O.
 */
import { cappedJsonText, withFields } from '../shared/index.js';
import type { CallDetail, CallJson, CallView, NestedRequestView } from '../contracts/index.js';

/** Nested requests kept per call in the console's view; older ones drop off first. */
export const MAX_NESTED_PER_CALL = 20;

export interface CallLogLimits {
  /** Calls kept; the oldest is evicted first. */
  maxCalls: number;
  /** Serialized size above which arguments or a result is replaced by a text preview. */
  maxDetailBytes: number;
  /** Total serialized detail bytes kept across all calls; oldest details are dropped first. */
  maxTotalDetailBytes: number;
}

export const DEFAULT_CALL_LOG_LIMITS: CallLogLimits = {
  maxCalls: 10_000,
  maxDetailBytes: 64 * 1024,
  maxTotalDetailBytes: 64 * 1024 * 1024,
};

/** Arguments and result as JSON text: one flat string each, so what is kept is exactly what is counted. */
interface StoredDetail {
  arguments: string;
  result: string | undefined;
  truncated: boolean;
  bytes: number;
}

export class CallLog {
  private readonly calls = new Map<string, CallView>();
  private readonly details = new Map<string, StoredDetail>();
  private detailBytes = 0;

  constructor(private readonly limits: CallLogLimits = DEFAULT_CALL_LOG_LIMITS) {}

  get size(): number {
    return this.calls.size;
  }

  get totalDetailBytes(): number {
    return this.detailBytes;
  }

  /** Inserts or replaces a call; a replaced call keeps its place in the order and its nested requests. */
  upsert(call: CallView): void {
    const nested = this.calls.get(call.callId)?.nested;
    this.calls.set(call.callId, nested && !call.nested ? withFields(call, { nested }) : call);
    while (this.calls.size > this.limits.maxCalls) {
      const oldest = this.calls.keys().next().value;
      if (oldest === undefined) break;
      this.calls.delete(oldest);
      this.dropDetail(oldest);
    }
  }

  progress(callId: string, progress: NonNullable<CallView['progress']>): CallView | undefined {
    const call = this.calls.get(callId);
    if (!call) return undefined;
    const updated = withFields(call, { progress });
    this.calls.set(callId, updated);
    return updated;
  }

  /** Records a nested request's start or end under its call; a call keeps at most MAX_NESTED_PER_CALL. */
  nested(view: NestedRequestView): CallView | undefined {
    const call = this.calls.get(view.callId);
    if (!call) return undefined;
    const current = call.nested ?? [];
    const known = current.some((n) => n.nestedId === view.nestedId);
    const nested = known ? current.map((n) => (n.nestedId === view.nestedId ? view : n)) : [...current, view].slice(-MAX_NESTED_PER_CALL);
    const updated = withFields(call, { nested });
    this.calls.set(view.callId, updated);
    return updated;
  }

  get(callId: string): CallView | undefined {
    return this.calls.get(callId);
  }

  /** Oldest first. */
  list(): CallView[] {
    return [...this.calls.values()];
  }

  recordDetail(callId: string, json: CallJson): void {
    if (!this.calls.has(callId)) return;
    const cappedArgs = cappedJsonText(json.arguments, this.limits.maxDetailBytes);
    const cappedResult = json.result === undefined ? undefined : cappedJsonText(json.result, this.limits.maxDetailBytes);
    this.dropDetail(callId);
    const detail: StoredDetail = {
      arguments: cappedArgs.json,
      result: cappedResult?.json,
      truncated: cappedArgs.truncated || (cappedResult?.truncated ?? false),
      bytes: cappedArgs.bytes + (cappedResult?.bytes ?? 0),
    };
    this.details.set(callId, detail);
    this.detailBytes += detail.bytes;
    while (this.detailBytes > this.limits.maxTotalDetailBytes && this.details.size > 1) {
      const oldest = this.details.keys().next().value;
      if (oldest === undefined || oldest === callId) break;
      this.dropDetail(oldest);
    }
  }

  detail(callId: string): CallDetail | undefined {
    const call = this.calls.get(callId);
    if (!call) return undefined;
    const stored = this.details.get(callId);
    if (!stored) return { call, arguments: null, truncated: false };
    const out: CallDetail = { call, arguments: JSON.parse(stored.arguments) as unknown, truncated: stored.truncated };
    if (stored.result !== undefined) out.result = JSON.parse(stored.result) as unknown;
    return out;
  }

  private dropDetail(callId: string): void {
    const stored = this.details.get(callId);
    if (!stored) return;
    this.details.delete(callId);
    this.detailBytes -= stored.bytes;
  }
}
