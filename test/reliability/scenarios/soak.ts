/**
 * The soak: agent calls at a fixed rate against a plugin that disconnects and reconnects every few
 * seconds. Every call carries a unique id that the plugin records; some ids are refused once as
 * not executed so the bridge must re-send them. Shared by `npm run soak`, the short CI soak and the
 * reliability report.
 *
 * Junction runs in a child process and only that process's memory is measured: in one process the
 * heap also held this test's per-call bookkeeping (about 330 bytes a call, 0.4 MB/min at 20 calls/s),
 * the HTTP client's connection pool and the agents' and plugin's state, and their growth read as
 * Junction's.
 */
import { join } from 'node:path';
import { METRICS_WINDOW_SECONDS } from '../../../src-main/control/index.js';
import { startJunctionProcess } from '../../support/junction-process.js';
import { startLoopbackProxy } from '../../support/loopback-proxy.js';
import { endAgent, openAgent } from './agent.js';
import { callOutcome, describeOutcome, type CallOutcome } from './outcome.js';
import { createProbePlugin } from './probe-plugin.js';
import { sampleProcessMemory, type MemorySample, type RssSummary } from './rss.js';

export interface SoakOptions {
  seconds: number;
  callsPerSecond?: number;
  reconnectEveryMs?: number;
  /** Every n-th call is first refused as not executed. */
  refuseEvery?: number;
  /** RSS may grow by at most this much between start and end. */
  rssGrowthLimitMb?: number;
  /** Seconds left out before the memory trend is fitted; by default the longer of a quarter of the run and `minimumWarmupSeconds`. */
  warmupSeconds?: number;
  /** Calls the console keeps (`console-call-history`, default 1,000); a small history is full well before the warm-up ends. */
  callHistory?: number;
  /** More Junction settings (`key=value`), e.g. `audit=false` to tell the audit trail's share of memory from the rest. */
  settings?: string[];
  /** Heap snapshots of the Junction process at these seconds, written to `dir` (each pauses Junction for seconds and disturbs RSS). */
  heapSnapshots?: { atSeconds: number[]; dir: string };
  /** Junction's retained heap may grow by at most this many MB per minute after warm-up (least-squares slope). */
  heapSlopeLimitMbPerMin?: number;
  /** Junction's RSS may grow by at most this many MB per minute after warm-up; by default `defaultRssSlopeLimit`. */
  rssSlopeLimitMbPerMin?: number;
  onProgress?: (line: string) => void;
}

export interface SoakLimits {
  rssLimit: number;
  heapSlopeLimit: number;
  rssSlopeLimit: number;
}

export interface SoakResult {
  seconds: number;
  sent: number;
  /** Calls that ended in a result or a structured error, each exactly once. */
  answered: number;
  results: number;
  structuredErrors: Record<string, number>;
  /** One message per structured error code, for the report. */
  errorSamples: Record<string, string>;
  /** One description per kind of lost call (hung, transport error, unstructured error), for the report. */
  lostSamples: Record<string, string>;
  /** Calls that hung, failed at the transport, or ended in an unstructured error. */
  lost: number;
  /** Ids the plugin executed more than once. */
  duplicated: number;
  /** Ids answered with a result although the plugin never executed them. */
  phantom: number;
  /** Ids refused once as not executed, then re-sent by the bridge and executed. */
  resentAndExecuted: number;
  /** Times the plugin's link was cut (it reconnects by itself each time). */
  reconnects: number;
  /** Junction's memory (its own process), and the limits it was held to. */
  rss: RssSummary;
  limits: SoakLimits;
  failures: string[];
}

/** A progress line with Junction's newest memory sample (taken after a full collection in its process). */
function memoryLine(started: number, sent: number, answered: number, cuts: number, memory: MemorySample): string {
  return `${Math.round((Date.now() - started) / 1000)} s: ${sent} sent, ${answered} answered, ${cuts} link cuts, Junction rss ${Math.round(memory.rssMb)} MB, heap ${Math.round(memory.heapMb)} MB`;
}

const DEFAULT_CALL_HISTORY = 1000;

/**
 * What Junction holds by design fills up at the start of a soak: the console's call history (a ring of
 * `console-call-history` calls, so history / rate seconds) and the metrics' one-minute window. Fitting
 * the trend over that filling would read a plateau being reached as a leak, so the warm-up covers both,
 * plus a margin of ten seconds for the JIT's optimised code. Everything after it must be flat.
 */
export function minimumWarmupSeconds(callHistory: number, callsPerSecond: number): number {
  return Math.max(callHistory / callsPerSecond, METRICS_WINDOW_SECONDS) + 10;
}

/**
 * MB per minute of retained-heap growth tolerated after warm-up, for runs of minutes: at 20 calls/s
 * about 0.9 KB kept per call. Junction's own heap measured 0.17 MB/min over a 300-second soak (the
 * in-process figure, 1.5 MB/min, was mostly the test's bookkeeping).
 */
export const DEFAULT_HEAP_SLOPE_LIMIT = 1;

/**
 * RSS rises by design while the audit trail is young: its writer's SQLite page cache (`cache_size`,
 * 16 MB in audit/database.ts) fills while the database is smaller than it, and SQLite's other working
 * memory grows with it. Writing soak-shaped calls in bulk, Junction's RSS rose 1.7 KB a call over the
 * first 12,500 calls, 0.45 KB a call up to 30,000, and was flat from there (test/reliability/
 * audit-memory.test.ts holds it to that plateau); with a 2 MB cache the plateau came 16 MB lower. Without
 * the audit trail (audit=false) a 300-second soak's RSS trend was 0.63 MB/min, against 1.95 with it. A
 * soak that starts on an empty trail runs inside that filling (30,000 calls are 25 minutes at 20 calls/s),
 * longer than any warm-up can skip, so its RSS trend is allowed the rate of the phase its fitted samples
 * start in, on top of the noise margin, and no more.
 */
const AUDIT_FILL_PHASES = [
  { untilCalls: 12_500, kbPerCall: 1.8 },
  { untilCalls: 30_000, kbPerCall: 0.5 },
];
/** RSS trend noise of a quiet Junction process after warm-up, from full collections every second. */
const RSS_SLOPE_NOISE_MB_PER_MIN = 1.5;

export function defaultRssSlopeLimit(callsPerSecond: number, warmupSeconds: number): number {
  const phase = AUDIT_FILL_PHASES.find((p) => callsPerSecond * warmupSeconds < p.untilCalls);
  const fill = phase ? (callsPerSecond * 60 * phase.kbPerCall) / 1024 : 0;
  return Math.round((fill + RSS_SLOPE_NOISE_MB_PER_MIN) * 10) / 10;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const rate = options.callsPerSecond ?? 20;
  const reconnectEveryMs = options.reconnectEveryMs ?? 3000;
  const refuseEvery = options.refuseEvery ?? 25;
  const rssLimit = options.rssGrowthLimitMb ?? 150;
  const heapSlopeLimit = options.heapSlopeLimitMbPerMin ?? DEFAULT_HEAP_SLOPE_LIMIT;
  const progress = options.onProgress ?? (() => undefined);

  const callHistory = options.callHistory ?? DEFAULT_CALL_HISTORY;
  // The wait window covers a reconnect cycle, so a call sent while the plugin is away is held, not failed.
  // The first occurrence of a setting wins, so the caller's come first.
  const junction = await startJunctionProcess([
    ...(options.settings ?? []),
    'plugin-timeout=10000',
    'plugin-reconnect-wait-seconds=5',
    `console-call-history=${callHistory}`,
  ]);
  // The plugin's link runs through a proxy that cuts it every cycle, as a flaky network or a
  // crashing transport would; the plugin reconnects by itself, the bridge holds calls meanwhile.
  const proxy = await startLoopbackProxy(junction.port);
  const probe = createProbePlugin({
    endpoint: `http://127.0.0.1:${proxy.port}/hub/mcp-server`,
    reconnectDelaysMs: [50, 100, 250],
    role: 'editor',
    name: 'soak',
    prefix: 'soak-',
    refuseFirstAttempt: (id) => Number(id.slice(id.lastIndexOf('-') + 1)) % refuseEvery === 0,
  });
  await probe.plugin.connect();
  const outcomes = new Map<string, CallOutcome[]>();
  let sent = 0;
  // Calls in flight enter the memory trend as a second regressor, so a backlog on a loaded machine is not read as a leak.
  const warmupSeconds = options.warmupSeconds ?? Math.max(options.seconds / 4, minimumWarmupSeconds(callHistory, rate));
  const rssSlopeLimit = options.rssSlopeLimitMbPerMin ?? defaultRssSlopeLimit(rate, warmupSeconds);
  const memory = await sampleProcessMemory(() => junction.memory(), { warmupSeconds, inFlight: () => sent - outcomes.size });
  let reconnects = 0;
  let running = true;
  const snapshots = (options.heapSnapshots?.atSeconds ?? []).map((at) =>
    setTimeout(() => {
      junction.writeHeapSnapshot(join(options.heapSnapshots!.dir, `junction-${at}s.heapsnapshot`)).then(
        (path) => progress(`heap snapshot ${path}`),
        (error: unknown) => progress(`heap snapshot at ${at} s failed: ${String(error)}`),
      );
    }, at * 1000),
  );

  const cycle = (async () => {
    while (running) {
      await sleep(reconnectEveryMs);
      if (!running) break;
      proxy.dropAll();
      reconnects++;
    }
  })();

  try {
    // Agents rotate every ten seconds: the MCP SDK client adds an abort listener per request to one
    // transport-lifetime signal, which would otherwise grow in this process. A retired agent ends its
    // session (DELETE), as a well-behaved agent does: an abandoned one stays open in Junction until
    // `idle-timeout-seconds` (600 s, the whole soak) and would be a plateau reached only after the run.
    const rotateEvery = rate * 10;
    let agent = await openAgent(junction.baseUrl);
    let agentCalls: Promise<void>[] = [];
    const retired: Promise<void>[] = [];
    const total = Math.round(options.seconds * rate);
    const started = Date.now();
    for (let n = 1; n <= total; n++) {
      // Fixed rate against the wall clock, so a slow call never slows the senders down.
      const due = started + (n * 1000) / rate;
      if (due > Date.now()) await sleep(due - Date.now());
      if (n % rotateEvery === 0) {
        const [old, calls] = [agent, agentCalls];
        retired.push(Promise.all(calls).then(() => endAgent(old)));
        agent = await openAgent(junction.baseUrl);
        agentCalls = [];
      }
      const id = `call-${n}`;
      sent = n;
      agentCalls.push(
        callOutcome(agent, probe.tools.echo, { id }, 30_000).then((outcome) => {
          // Results are judged by kind only; keeping their values would only grow this process.
          const kept: CallOutcome = outcome.kind === 'result' ? { kind: 'result', value: null, ms: outcome.ms } : outcome;
          outcomes.set(id, [...(outcomes.get(id) ?? []), kept]);
        }),
      );
      if (n % rotateEvery === 0) progress(memoryLine(started, n, outcomes.size, reconnects, memory.latest()));
    }
    running = false;
    await Promise.all(agentCalls);
    await Promise.all([...retired, endAgent(agent)]);
    const rss = await memory.stop();
    return summarize(options.seconds, outcomes, probe.executions, probe.refusals, reconnects, rss, { rssLimit, heapSlopeLimit, rssSlopeLimit });
  } finally {
    running = false;
    for (const timer of snapshots) clearTimeout(timer);
    // A run that failed part-way still stops sampling before the process it reads goes away.
    await memory.stop().catch(() => undefined);
    await cycle;
    await probe.plugin.disconnect();
    await proxy.close();
    await junction.stop();
  }
}

function summarize(
  seconds: number,
  outcomes: Map<string, CallOutcome[]>,
  executions: Map<string, number>,
  refusals: Map<string, number>,
  reconnects: number,
  rss: RssSummary,
  limits: SoakLimits,
): SoakResult {
  let results = 0;
  let lost = 0;
  let phantom = 0;
  let answeredTwice = 0;
  const structuredErrors: Record<string, number> = {};
  const errorSamples: Record<string, string> = {};
  const lostSamples: Record<string, string> = {};
  for (const [id, list] of outcomes) {
    if (list.length > 1) answeredTwice++;
    const outcome = list[0] as CallOutcome;
    if (outcome.kind === 'result') {
      results++;
      if (!executions.has(id)) phantom++;
    } else if (outcome.kind === 'structured-error') {
      structuredErrors[outcome.code] = (structuredErrors[outcome.code] ?? 0) + 1;
      errorSamples[outcome.code] ??= outcome.message;
    } else {
      lost++;
      lostSamples[outcome.kind] ??= describeOutcome(outcome);
    }
  }
  const duplicated = [...executions.values()].filter((count) => count > 1).length;
  const resentAndExecuted = [...refusals.keys()].filter((id) => executions.get(id) === 1).length;
  const answered = outcomes.size - lost;
  const failures: string[] = [];
  if (lost > 0) failures.push(`${lost} calls lost (hung, transport failure or unstructured error)`);
  if (duplicated > 0) failures.push(`${duplicated} call ids executed more than once`);
  if (phantom > 0) failures.push(`${phantom} results for ids the plugin never executed`);
  if (answeredTwice > 0) failures.push(`${answeredTwice} call ids answered more than once`);
  if (rss.endMb - rss.startMb > limits.rssLimit) failures.push(`RSS grew ${Math.round(rss.endMb - rss.startMb)} MB (limit ${limits.rssLimit} MB)`);
  if (rss.heapSlopeMbPerMin === null || rss.rssSlopeMbPerMin === null) failures.push('too few memory samples after warm-up to fit a trend');
  else {
    if (rss.heapSlopeMbPerMin > limits.heapSlopeLimit) {
      failures.push(`Junction's retained heap kept growing at ${rss.heapSlopeMbPerMin} MB/min after warm-up (limit ${limits.heapSlopeLimit} MB/min)`);
    }
    if (rss.rssSlopeMbPerMin > limits.rssSlopeLimit) {
      failures.push(`Junction's RSS kept growing at ${rss.rssSlopeMbPerMin} MB/min after warm-up (limit ${limits.rssSlopeLimit} MB/min)`);
    }
  }
  return { seconds, sent: outcomes.size, answered, results, structuredErrors, errorSamples, lostSamples, lost, duplicated, phantom, resentAndExecuted, reconnects, rss, limits, failures };
}
