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

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * 24-hour local time with milliseconds (`HH:MM:SS.mmm`), as operators correlate these with logs.
 * Written out by hand, not with Intl: the first Intl formatter a page builds loads ICU's locale data,
 * one uninterruptible 30–300 ms task that lands in the console's first render.
 */
export function formatTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
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
  return formatCount(perSecond);
}

export function formatPercent(ratio: number): string {
  if (ratio === 0) return '0%';
  if (ratio < 0.001) return '<0.1%';
  return `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)}%`;
}

/** A whole number with thousands grouped (`10,000`), by hand for the reason formatTime gives. */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}
