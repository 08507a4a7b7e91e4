/** Samples this process's resident set size, for the "memory stays bounded / flat" checks. */
export interface RssSummary {
  startMb: number;
  endMb: number;
  maxMb: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export interface RssSampler {
  stop(): RssSummary;
}

/** Lets the heap shrink first when the process runs with --expose-gc; otherwise measures as is. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

export function sampleRss(intervalMs = 1000): RssSampler {
  collectGarbage();
  const start = process.memoryUsage().rss;
  let max = start;
  const timer = setInterval(() => {
    max = Math.max(max, process.memoryUsage().rss);
  }, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      collectGarbage();
      const end = process.memoryUsage().rss;
      max = Math.max(max, end);
      return { startMb: mb(start), endMb: mb(end), maxMb: mb(max) };
    },
  };
}
