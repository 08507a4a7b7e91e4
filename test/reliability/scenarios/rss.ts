/**
 * Samples this process's memory for the "memory stays bounded / flat" checks: RSS, and the heap left
 * after a full collection, whose least-squares slope over the samples after a warm-up tells a leak
 * (steady growth) from a plateau, which a start/end difference or a ceiling cannot.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface RssSummary {
  startMb: number;
  endMb: number;
  maxMb: number;
  /** Least-squares slopes over the post-warm-up samples, in MB per minute; null with fewer than 3 samples. */
  rssSlopeMbPerMin: number | null;
  heapSlopeMbPerMin: number | null;
  /** Samples the slopes were fitted to, and the warm-up left out before them. */
  samples: number;
  warmupSeconds: number;
}

export interface MemorySample {
  seconds: number;
  rssMb: number;
  heapMb: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export interface RssSampler {
  stop(): RssSummary;
}

/**
 * A full collection, so a heap figure is what is retained. Uses `gc` when the process runs with
 * --expose-gc; otherwise exposes it at run time (the test runner starts files without the flag).
 */
function resolveGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
const gc = resolveGc();

export function collectGarbage(): void {
  gc();
}

/** Slope of the least-squares line through the points, in y units per x unit; null when undetermined. */
export function leastSquaresSlope(points: ReadonlyArray<{ x: number; y: number }>): number | null {
  if (points.length < 3) return null;
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const p of points) {
    covariance += (p.x - meanX) * (p.y - meanY);
    variance += (p.x - meanX) ** 2;
  }
  return variance === 0 ? null : covariance / variance;
}

function sample(started: number): MemorySample {
  collectGarbage();
  const { rss, heapUsed } = process.memoryUsage();
  return { seconds: (Date.now() - started) / 1000, rssMb: mb(rss), heapMb: mb(heapUsed) };
}

export function sampleRss(options: { intervalMs?: number; warmupSeconds?: number } = {}): RssSampler {
  const intervalMs = options.intervalMs ?? 1000;
  const warmupSeconds = options.warmupSeconds ?? 0;
  const started = Date.now();
  const samples: MemorySample[] = [sample(started)];
  const timer = setInterval(() => samples.push(sample(started)), intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      samples.push(sample(started));
      const fitted = samples.filter((s) => s.seconds >= warmupSeconds);
      const perMinute = (slope: number | null) => (slope === null ? null : Math.round(slope * 60 * 100) / 100);
      return {
        startMb: samples[0]!.rssMb,
        endMb: samples.at(-1)!.rssMb,
        maxMb: Math.max(...samples.map((s) => s.rssMb)),
        rssSlopeMbPerMin: perMinute(leastSquaresSlope(fitted.map((s) => ({ x: s.seconds, y: s.rssMb })))),
        heapSlopeMbPerMin: perMinute(leastSquaresSlope(fitted.map((s) => ({ x: s.seconds, y: s.heapMb })))),
        samples: fitted.length,
        warmupSeconds,
      };
    },
  };
}
