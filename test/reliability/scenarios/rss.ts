/**
 * Samples memory (this process's, or another's through a reader) for the "memory stays bounded / flat"
 * checks: RSS, and the heap left
 * after a full collection, whose least-squares slope over the samples after a warm-up tells a leak
 * (steady growth) from a plateau, which a start/end difference or a ceiling cannot.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface RssSummary {
  startMb: number;
  endMb: number;
  maxMb: number;
  /** Least-squares slopes over the post-warm-up samples, net of work in flight, in MB per minute; null when undetermined. */
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
  /** Work in flight when sampled (e.g. calls sent and not yet answered). */
  inFlight: number;
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
  return trendNetOfLoad(points.map((p) => ({ seconds: p.x, value: p.y, inFlight: 0 })));
}

/**
 * The time coefficient of a least-squares fit `value = a + b·seconds + c·inFlight`: growth over time
 * net of what work in flight holds at each sample. A machine that falls behind builds a backlog whose
 * memory rises with time too; without the second regressor that would read as a leak. With a constant
 * in-flight count this is the plain slope. Null when the fit is undetermined.
 */
export function trendNetOfLoad(points: ReadonlyArray<{ seconds: number; value: number; inFlight: number }>): number | null {
  if (points.length < 3) return null;
  const n = points.length;
  const mean = (f: (p: (typeof points)[number]) => number) => points.reduce((sum, p) => sum + f(p), 0) / n;
  const [mt, mq, mv] = [mean((p) => p.seconds), mean((p) => p.inFlight), mean((p) => p.value)];
  let stt = 0;
  let sqq = 0;
  let stq = 0;
  let stv = 0;
  let sqv = 0;
  for (const p of points) {
    const [t, q, v] = [p.seconds - mt, p.inFlight - mq, p.value - mv];
    stt += t * t;
    sqq += q * q;
    stq += t * q;
    stv += t * v;
    sqv += q * v;
  }
  if (stt === 0) return null;
  if (sqq === 0) return stv / stt;
  const determinant = stt * sqq - stq * stq;
  if (Math.abs(determinant) < 1e-9 * stt * sqq) return null;
  return (stv * sqq - sqv * stq) / determinant;
}

const toSample = (started: number, memory: { rss: number; heapUsed: number }, inFlight: number): MemorySample => ({
  seconds: (Date.now() - started) / 1000,
  rssMb: mb(memory.rss),
  heapMb: mb(memory.heapUsed),
  inFlight,
});

function sample(started: number, inFlight: () => number): MemorySample {
  collectGarbage();
  return toSample(started, process.memoryUsage(), inFlight());
}

/** Start, end and maximum RSS over all samples; slopes over those taken after the warm-up. */
function summarize(samples: readonly MemorySample[], warmupSeconds: number): RssSummary {
  const fitted = samples.filter((s) => s.seconds >= warmupSeconds);
  const perMinute = (slope: number | null) => (slope === null ? null : Math.round(slope * 60 * 100) / 100);
  return {
    startMb: samples[0]!.rssMb,
    endMb: samples.at(-1)!.rssMb,
    maxMb: Math.max(...samples.map((s) => s.rssMb)),
    rssSlopeMbPerMin: perMinute(trendNetOfLoad(fitted.map((s) => ({ seconds: s.seconds, value: s.rssMb, inFlight: s.inFlight })))),
    heapSlopeMbPerMin: perMinute(trendNetOfLoad(fitted.map((s) => ({ seconds: s.seconds, value: s.heapMb, inFlight: s.inFlight })))),
    samples: fitted.length,
    warmupSeconds,
  };
}

export interface SamplerOptions {
  intervalMs?: number;
  warmupSeconds?: number;
  inFlight?: () => number;
}

/** Samples this process. */
export function sampleRss(options: SamplerOptions = {}): RssSampler {
  const intervalMs = options.intervalMs ?? 1000;
  const warmupSeconds = options.warmupSeconds ?? 0;
  const inFlight = options.inFlight ?? (() => 0);
  const started = Date.now();
  const samples: MemorySample[] = [sample(started, inFlight)];
  const timer = setInterval(() => samples.push(sample(started, inFlight)), intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      samples.push(sample(started, inFlight));
      return summarize(samples, warmupSeconds);
    },
  };
}

export interface ProcessMemorySampler {
  /** The newest sample, for progress lines. */
  latest(): MemorySample;
  /** Ends sampling with a last reading; later calls return the same summary. */
  stop(): Promise<RssSummary>;
}

/**
 * Samples another process through `read`, which must report its memory after a full collection there
 * (see test/support/junction-process.ts). One reading at a time: the next waits for the previous answer.
 */
export async function sampleProcessMemory(read: () => Promise<{ rss: number; heapUsed: number }>, options: SamplerOptions = {}): Promise<ProcessMemorySampler> {
  const intervalMs = options.intervalMs ?? 1000;
  const warmupSeconds = options.warmupSeconds ?? 0;
  const inFlight = options.inFlight ?? (() => 0);
  const started = Date.now();
  const take = async () => toSample(started, await read(), inFlight());
  const samples: MemorySample[] = [await take()];
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
      if (running) samples.push(await take());
    }
  })();
  // A reading that fails (the process died) surfaces from stop(), not as an unhandled rejection before it.
  loop.catch(() => undefined);
  let summary: Promise<RssSummary> | undefined;
  return {
    latest: () => samples.at(-1)!,
    stop() {
      running = false;
      summary ??= loop.then(async () => {
        samples.push(await take());
        return summarize(samples, warmupSeconds);
      });
      return summary;
    },
  };
}
