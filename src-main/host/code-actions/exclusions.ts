/**
 * The exclusion policy's record: which discovered actions were withheld from agents and why, for
 * server-status detail=Full. Counts are cumulative; the recent list is bounded.
 */
import type { ExclusionReason } from './normalise.js';

export interface ExclusionEntry {
  path: string;
  title: string;
  reason: ExclusionReason;
  detail: string;
  at: number;
}

export interface ExclusionReport {
  total: number;
  byReason: Record<ExclusionReason, number>;
  recent: ExclusionEntry[];
}

const RECENT = 50;

export class ExclusionLog {
  private readonly counts: Record<ExclusionReason, number> = { commands: 0, interactive: 0, nonSourceEffect: 0, overlappingEdits: 0, providerFailed: 0 };
  private readonly recent: ExclusionEntry[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  record(entry: Omit<ExclusionEntry, 'at'>): void {
    this.counts[entry.reason]++;
    this.recent.push({ ...entry, at: this.now() });
    if (this.recent.length > RECENT) this.recent.shift();
  }

  report(): ExclusionReport {
    const byReason = { ...this.counts };
    return { total: Object.values(byReason).reduce((a, b) => a + b, 0), byReason, recent: this.recent.map((e) => ({ ...e })) };
  }
}
