/**
 * The soak: agent calls at a fixed rate against a plugin that disconnects and reconnects every few
 * seconds. Every call carries a unique id that the plugin records; some ids are refused once as
 * not executed so the bridge must re-send them. Shared by `npm run soak`, the short CI soak and the
 * reliability report.
 */
import { startTestJunction } from '../../support/junction-harness.js';
import { startLoopbackProxy } from '../../support/loopback-proxy.js';
import { openAgent } from './agent.js';
import { callOutcome, type CallOutcome } from './outcome.js';
import { createProbePlugin } from './probe-plugin.js';
import { collectGarbage, sampleRss, type RssSummary } from './rss.js';

export interface SoakOptions {
  seconds: number;
  callsPerSecond?: number;
  reconnectEveryMs?: number;
  /** Every n-th call is first refused as not executed. */
  refuseEvery?: number;
  /** RSS may grow by at most this much between start and end. */
  rssGrowthLimitMb?: number;
  /** Seconds left out before the memory trend is fitted (start-up, caches filling); default a quarter of the run. */
  warmupSeconds?: number;
  /** Calls the console keeps (`console-call-history`); a small history is full well before the warm-up ends. */
  callHistory?: number;
  /** The retained heap may grow by at most this many MB per minute after warm-up (least-squares slope). */
  heapSlopeLimitMbPerMin?: number;
  onProgress?: (line: string) => void;
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
  rss: RssSummary;
  failures: string[];
}

/** A progress line; with --expose-gc it collects first, so the heap figure is what is retained. */
function memoryLine(started: number, sent: number, answered: number, cuts: number): string {
  collectGarbage();
  const { rss, heapUsed } = process.memoryUsage();
  return `${Math.round((Date.now() - started) / 1000)} s: ${sent} sent, ${answered} answered, ${cuts} link cuts, rss ${Math.round(rss / 1048576)} MB, heap ${Math.round(heapUsed / 1048576)} MB`;
}

/**
 * MB per minute of retained-heap growth tolerated after warm-up, for runs of minutes: at 20 calls/s
 * that is about 2 KB kept per call; 120-second soaks measured 3.3 MB/min with the old 10,000-call history and 2.0 with this one.
 */
export const DEFAULT_HEAP_SLOPE_LIMIT = 2.5;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const rate = options.callsPerSecond ?? 20;
  const reconnectEveryMs = options.reconnectEveryMs ?? 3000;
  const refuseEvery = options.refuseEvery ?? 25;
  const rssLimit = options.rssGrowthLimitMb ?? 150;
  const slopeLimit = options.heapSlopeLimitMbPerMin ?? DEFAULT_HEAP_SLOPE_LIMIT;
  const progress = options.onProgress ?? (() => undefined);

  // The wait window covers a reconnect cycle, so a call sent while the plugin is away is held, not failed.
  const junction = await startTestJunction([
    'plugin-timeout=10000',
    'plugin-reconnect-wait-seconds=5',
    ...(options.callHistory === undefined ? [] : [`console-call-history=${options.callHistory}`]),
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
  const rss = sampleRss({ warmupSeconds: options.warmupSeconds ?? options.seconds / 4, inFlight: () => sent - outcomes.size });
  let reconnects = 0;
  let running = true;

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
    // transport-lifetime signal, which would otherwise grow in this process and blur the server's RSS.
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
        retired.push(Promise.all(calls).then(() => old.close()));
        agent = await openAgent(junction.baseUrl);
        agentCalls = [];
      }
      const id = `call-${n}`;
      sent = n;
      agentCalls.push(
        callOutcome(agent, probe.tools.echo, { id }, 30_000).then((outcome) => {
          // Results are judged by kind only; keeping their values would be this test's own heap growth.
          const kept: CallOutcome = outcome.kind === 'result' ? { kind: 'result', value: null, ms: outcome.ms } : outcome;
          outcomes.set(id, [...(outcomes.get(id) ?? []), kept]);
        }),
      );
      if (n % rotateEvery === 0) progress(memoryLine(started, n, outcomes.size, reconnects));
    }
    running = false;
    await Promise.all(agentCalls);
    await Promise.all([...retired, agent.close()]);
  } finally {
    running = false;
    await cycle;
    await probe.plugin.disconnect();
    await proxy.close();
    await junction.stop();
  }

  return summarize(options.seconds, outcomes, probe.executions, probe.refusals, reconnects, rss.stop(), { rssLimit, slopeLimit });
}

function summarize(
  seconds: number,
  outcomes: Map<string, CallOutcome[]>,
  executions: Map<string, number>,
  refusals: Map<string, number>,
  reconnects: number,
  rss: RssSummary,
  limits: { rssLimit: number; slopeLimit: number },
): SoakResult {
  let results = 0;
  let lost = 0;
  let phantom = 0;
  let answeredTwice = 0;
  const structuredErrors: Record<string, number> = {};
  const errorSamples: Record<string, string> = {};
  for (const [id, list] of outcomes) {
    if (list.length > 1) answeredTwice++;
    const outcome = list[0] as CallOutcome;
    if (outcome.kind === 'result') {
      results++;
      if (!executions.has(id)) phantom++;
    } else if (outcome.kind === 'structured-error') {
      structuredErrors[outcome.code] = (structuredErrors[outcome.code] ?? 0) + 1;
      errorSamples[outcome.code] ??= outcome.message;
    } else lost++;
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
  if (rss.heapSlopeMbPerMin === null) failures.push('too few memory samples after warm-up to fit a trend');
  else if (rss.heapSlopeMbPerMin > limits.slopeLimit) {
    failures.push(`retained heap kept growing at ${rss.heapSlopeMbPerMin} MB/min after warm-up (limit ${limits.slopeLimit} MB/min)`);
  }
  return { seconds, sent: outcomes.size, answered, results, structuredErrors, errorSamples, lost, duplicated, phantom, resentAndExecuted, reconnects, rss, failures };
}
