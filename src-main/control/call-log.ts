/**
 * The console's memory of recent calls: a bounded, insertion-ordered log of CallViews plus bounded
 * argument/result details. Pure data structure, no I/O.
 */
import type { CallDetail, CallView, NestedRequestView } from '../contracts/index.js';

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

export interface CappedValue {
  /** JSON text of the value, or of a string preview of it. */
  json: string;
  truncated: boolean;
  /** UTF-8 size of `json`. */
  bytes: number;
}

/**
 * A flat copy of `text`. V8 represents `slice` and `+` results as views into their source strings, so a
 * 32 KB preview sliced from a 4 MB argument would keep all 4 MB alive; a UTF-16 round trip through a
 * Buffer (lossless, lone surrogates included) allocates the preview on its own.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

function preview(text: string, maxBytes: number): CappedValue {
  // Slicing by UTF-16 units keeps the preview at or under the byte cap for ASCII-heavy JSON and close to it otherwise.
  const json = JSON.stringify(detached(`${text.slice(0, Math.max(0, Math.floor(maxBytes / 2)))}…`));
  return { json, truncated: true, bytes: Buffer.byteLength(json, 'utf8') };
}

/**
 * A bounded copy of a value as JSON text: the value's own JSON when it fits in `maxBytes`, else a
 * string preview of that size. Text rather than the value itself, whose strings may be views into much
 * larger ones (a result sliced from a whole document) and whose object graph would take several times
 * its JSON size on the heap: the log retains what it counts.
 */
export function capValue(value: unknown, maxBytes: number): CappedValue {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    return preview(String(value), maxBytes);
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { json: text, truncated: false, bytes };
  return preview(text, maxBytes);
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
    this.calls.set(call.callId, nested && !call.nested ? { ...call, nested } : call);
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
    const updated = { ...call, progress };
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
    const updated = { ...call, nested };
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

  recordDetail(callId: string, args: unknown, result?: unknown): void {
    if (!this.calls.has(callId)) return;
    const cappedArgs = capValue(args, this.limits.maxDetailBytes);
    const cappedResult = result === undefined ? undefined : capValue(result, this.limits.maxDetailBytes);
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
