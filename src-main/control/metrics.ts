/**
 * Call metrics computed from the call stream as it passes through the hub: per-second buckets over the
 * last minute (rate, errors, refusals, latency histogram) for the console header, and per-tool totals for
 * the plugin view. Latencies go into fixed logarithmic bins, so memory and work per call stay constant at any rate.
 * Pure data structure: the caller supplies the clock.
 *
 * An approval policy makes three outcomes that must not be mixed up: a call held for the operator is
 * neither in flight nor slow; a call refused (by a rule, the operator or the approval timeout) never ran,
 * so it is no error and has no latency; a call that ran is timed without the operator's wait.
 */
import type { CallApprovalView, CallView, MetricsView, ToolStatsView } from '../contracts/index.js';

export const METRICS_WINDOW_SECONDS = 60;

/** Bin i holds durations in [GROWTH^(i-1), GROWTH^i) ms; bin 0 holds durations under 1 ms. ~10% resolution up to ~24 h. */
const GROWTH = 1.1;
const BINS = 200;
const LOG_GROWTH = Math.log(GROWTH);

function binOf(ms: number): number {
  if (!(ms >= 1)) return 0;
  return Math.min(BINS - 1, 1 + Math.floor(Math.log(ms) / LOG_GROWTH));
}

/** A representative duration for a bin: its geometric midpoint (0.5 ms for the sub-millisecond bin). */
function valueOf(bin: number): number {
  if (bin === 0) return 0.5;
  return Math.pow(GROWTH, bin - 0.5);
}

/** What the call took to run: its whole duration less the time it waited for the operator. */
function executionMs(call: CallView): number {
  return Math.max(0, (call.durationMs ?? 0) - (call.policy?.heldMs ?? 0));
}

function percentile(histogram: Uint32Array, count: number, p: number): number | undefined {
  if (count === 0) return undefined;
  const rank = Math.max(1, Math.ceil((p / 100) * count));
  let seen = 0;
  for (let bin = 0; bin < histogram.length; bin++) {
    seen += histogram[bin] ?? 0;
    if (seen >= rank) return valueOf(bin);
  }
  return valueOf(histogram.length - 1);
}

interface Bucket {
  second: number;
  calls: number;
  errors: number;
  refused: number;
  histogram: Uint32Array;
  agents: Set<string>;
}

interface ToolTotals {
  calls: number;
  errors: number;
  histogram: Uint32Array;
}

export class CallMetrics {
  private readonly buckets: Bucket[] = Array.from({ length: METRICS_WINDOW_SECONDS }, () => ({
    second: -1,
    calls: 0,
    errors: 0,
    refused: 0,
    histogram: new Uint32Array(BINS),
    agents: new Set<string>(),
  }));
  private readonly tools = new Map<string, ToolTotals>();
  private readonly running = new Set<string>();
  /** Calls waiting for the operator, by call id. */
  private readonly held = new Set<string>();

  /** Feeds one call event; a finished call counts once, in the second it finished. */
  observe(call: CallView, now: number): void {
    if (call.status === 'running') {
      this.running.add(call.callId);
      return;
    }
    this.held.delete(call.callId);
    if (!this.running.delete(call.callId) && call.durationMs === undefined) return;
    const bucket = this.bucket(Math.floor(now / 1000));
    const refused = call.policy?.decision === 'deny';
    const failed = !refused && call.status === 'error';
    const bin = refused ? undefined : binOf(executionMs(call));
    bucket.calls += 1;
    if (failed) bucket.errors += 1;
    if (refused) bucket.refused += 1;
    if (bin !== undefined) bucket.histogram[bin] = (bucket.histogram[bin] ?? 0) + 1;
    bucket.agents.add(call.agent);
    // A name outside the catalogue (target `none`) is no tool: per-tool totals would grow with every name an agent invents.
    if (call.target === 'none') return;
    let totals = this.tools.get(call.tool);
    if (!totals) {
      totals = { calls: 0, errors: 0, histogram: new Uint32Array(BINS) };
      this.tools.set(call.tool, totals);
    }
    totals.calls += 1;
    if (failed) totals.errors += 1;
    if (bin !== undefined) totals.histogram[bin] = (totals.histogram[bin] ?? 0) + 1;
  }

  /** Feeds a held call's approval: pending while the operator decides, out of the count once decided. */
  observeApproval(approval: CallApprovalView): void {
    if (approval.state === 'pending') this.held.add(approval.callId);
    else this.held.delete(approval.callId);
  }

  /** The last minute ending at `now`, oldest second first in every series. */
  view(now: number): MetricsView {
    const current = Math.floor(now / 1000);
    const merged = new Uint32Array(BINS);
    const agents = new Set<string>();
    const series: MetricsView['series'] = { calls: [], errors: [], refused: [], p50Ms: [], p99Ms: [] };
    let calls = 0;
    let errors = 0;
    let refused = 0;
    for (let s = current - METRICS_WINDOW_SECONDS + 1; s <= current; s++) {
      const bucket = this.buckets[s % METRICS_WINDOW_SECONDS];
      const live = bucket !== undefined && bucket.second === s;
      const n = live ? bucket.calls : 0;
      const ran = live ? n - bucket.refused : 0;
      series.calls.push(n);
      series.errors.push(live ? bucket.errors : 0);
      series.refused.push(live ? bucket.refused : 0);
      series.p50Ms.push(live ? (percentile(bucket.histogram, ran, 50) ?? null) : null);
      series.p99Ms.push(live ? (percentile(bucket.histogram, ran, 99) ?? null) : null);
      if (!live) continue;
      calls += n;
      errors += bucket.errors;
      refused += bucket.refused;
      for (let i = 0; i < BINS; i++) merged[i] = (merged[i] ?? 0) + (bucket.histogram[i] ?? 0);
      for (const agent of bucket.agents) agents.add(agent);
    }
    const ran = calls - refused;
    const p50 = percentile(merged, ran, 50);
    const p99 = percentile(merged, ran, 99);
    let held = 0;
    for (const callId of this.held) if (this.running.has(callId)) held += 1;
    return {
      at: now,
      windowSeconds: METRICS_WINDOW_SECONDS,
      callsPerSecond: calls / METRICS_WINDOW_SECONDS,
      errorRatio: ran === 0 ? 0 : errors / ran,
      refused,
      ...(p50 !== undefined ? { p50Ms: p50 } : {}),
      ...(p99 !== undefined ? { p99Ms: p99 } : {}),
      inFlight: this.running.size - held,
      held,
      activeAgents: [...agents].sort(),
      series,
    };
  }

  /** Totals since start for one tool: calls (refused ones too), errors among those that ran, median execution time. */
  toolStats(tool: string): ToolStatsView {
    const totals = this.tools.get(tool);
    if (!totals) return { calls: 0, errors: 0 };
    const p50 = percentile(totals.histogram, totals.histogram.reduce((a, b) => a + b, 0), 50);
    return { calls: totals.calls, errors: totals.errors, ...(p50 !== undefined ? { p50Ms: p50 } : {}) };
  }

  private bucket(second: number): Bucket {
    const bucket = this.buckets[second % METRICS_WINDOW_SECONDS]!;
    if (bucket.second !== second) {
      bucket.second = second;
      bucket.calls = 0;
      bucket.errors = 0;
      bucket.refused = 0;
      bucket.histogram.fill(0);
      bucket.agents.clear();
    }
    return bucket;
  }
}
