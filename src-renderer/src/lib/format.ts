/** Display formatting shared by the views. Pure. */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Whole-second age or countdown, e.g. `2h 03m`, `4m 05s`, `12s`. */
export function formatSpan(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(sec).padStart(2, '0')}s`;
  return `${sec}s`;
}

// toLocaleTimeString builds a new formatter per call, which costs more than the rest of a table row.
// 24-hour clock with milliseconds in the locale's own separators: operators correlate these with logs.
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hourCycle: 'h23' });

export function formatTime(epochMs: number): string {
  return TIME_FORMAT.format(epochMs);
}

/** Latency for summaries: sub-millisecond and millisecond values keep one decimal. */
export function formatLatency(ms: number | undefined): string {
  if (ms === undefined) return '—';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return formatDuration(ms);
}

export function formatRate(perSecond: number): string {
  if (perSecond === 0) return '0';
  if (perSecond < 10) return perSecond.toFixed(2);
  return Math.round(perSecond).toLocaleString();
}

export function formatPercent(ratio: number): string {
  if (ratio === 0) return '0%';
  if (ratio < 0.001) return '<0.1%';
  return `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)}%`;
}
