/** Text tables and target verdicts for the benchmarks' output. */
import { fmt } from './stats.js';

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

export interface Target {
  name: string;
  measured: number;
  /** `min`: measured must be at least `limit`; `max`: at most. */
  kind: 'min' | 'max';
  limit: number;
  unit: string;
  digits?: number;
}

export function verdict(target: Target): string {
  const met = Number.isFinite(target.measured) && (target.kind === 'min' ? target.measured >= target.limit : target.measured <= target.limit);
  const digits = target.digits ?? 2;
  const bound = `${target.kind === 'min' ? '≥' : '≤'} ${fmt(target.limit, digits)}${target.unit}`;
  return `${met ? 'PASS' : 'MISS'}  ${target.name.padEnd(44)} ${fmt(target.measured, digits).padStart(8)}${target.unit}  (target ${bound})`;
}

export const mb = (bytes: number) => bytes / 1024 / 1024;
