/**
 * npm run bench:bridge — a bridged tool call through Junction against the floors, all measured in one
 * run, every party in its own process (Junction, the SDK echo plugin, each floor server and the
 * floor's echo client); this process is the load generator.
 *
 *   floor 1  plain Node `http` answering the JSON-RPC result itself
 *   floor 2  the same request forwarded over one `ws` to an echo client process (the reference)
 *   floor 3  a direct @microsoft/signalr invoke against Junction's hub code, alone
 *   /mcp     tools/call through Junction to the echo plugin (raw JSON-RPC posts after initialize, one
 *            session per connection: the SDK Client would spend more of the shared CPU in this
 *            process than the floors' client does, so the ratio would measure clients, not servers)
 *   /api     POST /api/tools/echo through Junction to the echo plugin
 *
 * Calls/s and p50/p99 at 1, 16 and 64 connections, Junction's CPU ms per call and RSS (idle without a
 * workspace, idle with the demo, peak under load, and a while after), ratios to floor 2 and the
 * issue's targets. Every Junction feature stays on (argument validation, admission, observers,
 * console events, audit trail). Environment:
 *   BENCH_QUICK=1      short phases and an 8 s "after" wait, under a minute in all
 *   BENCH_SECONDS=N    seconds per measured phase (default 5; quick 1)
 *   BENCH_JUNCTION=tsx run the sources through tsx instead of dist/ (which is otherwise brought up to
 *                      date first with npm start's incremental tsc -b; tsx adds ~100 MB of RSS)
 *   BENCH_FEATURES=1   instead, what features cost: /mcp and /api at 64 connections in a fresh Junction
 *                      with everything on, with the audit trail off, and with the console off
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { chooseRunner, countWarnings, startJunctionProcess, untilToolListed, type RunningJunction } from './support/junction-process.js';
import { HttpConnection, runLoad, type Lane, type LoadResult } from './support/load.js';
import { openMcpLane } from './support/mcp-session.js';
import { delay, procStats, startTs, watchPeakRss, type Child } from './support/processes.js';
import { mb, table, verdict, type Target } from './support/report.js';
import { fmt } from './support/stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
const PHASE_MS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1 : 5)) * 1000;
const WARMUP_MS = QUICK ? 300 : 1000;
/** Before its first level, each server is driven this long at 16 connections so its JIT is warm. */
const SERVER_WARMUP_MS = QUICK ? 600 : 2000;
const SETTLE_MS = QUICK ? 1500 : 5000;
const AFTER_MS = QUICK ? 8000 : 60_000;
const LEVELS = [1, 16, 64] as const;
const ARGS = { text: 'x'.repeat(64) };
const RPC_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: ARGS } });
const runner = chooseRunner(process.env.BENCH_JUNCTION);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

interface Row {
  name: string;
  results: LoadResult[];
  /** Server-process CPU ms per call at each level (the forwarder alone for floor 2). */
  cpuPerCall: number[];
}

/** Runs every level against one server process, reading that process's CPU over each measured window. */
async function measure(name: string, serverPid: number, openLane: () => Promise<Lane>, levels: readonly number[] = LEVELS): Promise<Row> {
  const row: Row = { name, results: [], cpuPerCall: [] };
  await runLoad(openLane, { concurrency: 16, durationMs: SERVER_WARMUP_MS, warmupMs: 0 });
  for (const concurrency of levels) {
    let cpuAtOpen = 0;
    let cpuMs = NaN;
    const result = await runLoad(openLane, {
      concurrency,
      durationMs: PHASE_MS,
      warmupMs: WARMUP_MS,
      window: {
        open: () => (cpuAtOpen = procStats(serverPid)?.cpuMs ?? NaN),
        close: () => (cpuMs = (procStats(serverPid)?.cpuMs ?? NaN) - cpuAtOpen),
      },
    });
    if (result.errors > 0) console.error(`${name} at ${concurrency}: ${result.errors} of ${result.calls} calls failed`);
    row.results.push(result);
    row.cpuPerCall.push(cpuMs / result.calls);
    process.stderr.write(`  ${name} ×${concurrency}: ${fmt(result.callsPerSecond, 0)} calls/s\n`);
  }
  return row;
}

function httpLane(base: URL, path: string, body: string, ok: (status: number, body: string) => boolean): () => Promise<Lane> {
  let told = false;
  return async () => {
    const connection = new HttpConnection(base);
    return {
      call: async () => {
        const reply = await connection.post(path, body);
        if (ok(reply.status, reply.body)) return true;
        if (!told) process.stderr.write(`  first failed call to ${path}: HTTP ${reply.status} ${reply.body.slice(0, 300)}\n`);
        told = true;
        return false;
      },
      close: () => connection.close(),
    };
  };
}

const rpcOk = (status: number, body: string) => status === 200 && body.includes('"isError":false');

async function listeningChild(name: string, file: string, args: string[] = []): Promise<{ child: Child; base: URL }> {
  const child = startTs(name, here(file), args);
  const [, port] = await child.waitFor(/^listening (\d+)$/);
  return { child, base: new URL(`http://127.0.0.1:${port}`) };
}

async function floorHttp(): Promise<Row> {
  const { child, base } = await listeningChild('http floor', './support/floors/http-floor.ts');
  try {
    return await measure('floor 1: node http answers', child.pid, httpLane(base, '/mcp', RPC_BODY, rpcOk));
  } finally {
    await child.stop();
  }
}

async function floorForward(): Promise<Row> {
  const { child, base } = await listeningChild('forward floor', './support/floors/forward-floor.ts');
  const connected = child.waitFor(/^client connected$/);
  const echo = startTs('floor echo client', here('./support/floors/echo-client.ts'), [`ws://127.0.0.1:${base.port}/`]);
  try {
    await connected;
    return await measure('floor 2: http → ws → echo process', child.pid, httpLane(base, '/mcp', RPC_BODY, rpcOk));
  } finally {
    await Promise.all([echo.stop(), child.stop()]);
  }
}

async function floorSignalR(): Promise<Row> {
  const { child, base } = await listeningChild('signalr hub', './support/floors/signalr-hub.ts');
  const openLane = async (): Promise<Lane> => {
    const connection = new HubConnectionBuilder()
      .withUrl(`${base.origin}/hub/mcp-server`, { skipNegotiation: true, transport: HttpTransportType.WebSockets })
      .configureLogging(LogLevel.None)
      .build();
    await connection.start();
    return {
      call: async () => ((await connection.invoke('Echo', ARGS)) as { text?: string }).text === ARGS.text,
      close: () => connection.stop(),
    };
  };
  try {
    return await measure('floor 3: signalr invoke → hub', child.pid, openLane);
  } finally {
    await child.stop();
  }
}

const apiOk = (status: number) => status === 200;

async function withPlugin<T>(junction: RunningJunction, run: () => Promise<T>): Promise<T> {
  const plugin = startTs('echo plugin', here('./support/echo-plugin.ts'), [junction.hubEndpoint]);
  try {
    await plugin.waitFor(/^connected$/);
    await untilToolListed(junction.base, 'echo');
    return await run();
  } finally {
    await plugin.stop();
  }
}

interface JunctionRun {
  mcp: Row;
  api: Row;
  idleRss: number;
  peakRss: number;
  afterRss: number;
  maxListenerWarnings: number;
}

async function junctionUnderLoad(): Promise<JunctionRun> {
  const junction = await startJunctionProcess(runner, []);
  try {
    await delay(SETTLE_MS);
    const idleRss = procStats(junction.child.pid)?.rssBytes ?? NaN;
    const pid = junction.child.pid;
    let peakRss = NaN;
    const [mcp, api] = await withPlugin(junction, async () => {
      const peak = watchPeakRss(pid);
      const mcpRow = await measure('Junction /mcp tools/call', pid, () => openMcpLane(junction.base, 'echo', ARGS));
      const apiRow = await measure('Junction POST /api/tools/echo', pid, httpLane(junction.base, '/api/tools/echo', JSON.stringify(ARGS), apiOk));
      peakRss = peak.stop();
      process.stderr.write(`  waiting ${AFTER_MS / 1000} s after the load for RSS to settle\n`);
      await delay(AFTER_MS);
      return [mcpRow, apiRow] as const;
    });
    const afterRss = procStats(pid)?.rssBytes ?? NaN;
    return { mcp, api, idleRss, peakRss, afterRss, maxListenerWarnings: countWarnings(junction, 'MaxListenersExceededWarning') };
  } finally {
    await junction.stop();
  }
}

async function demoIdleRss(): Promise<number> {
  const junction = await startJunctionProcess(runner, ['demo=true']);
  try {
    await delay(SETTLE_MS);
    return procStats(junction.child.pid)?.rssBytes ?? NaN;
  } finally {
    await junction.stop();
  }
}

/** What switching one feature off buys at 64 connections: each variant in a fresh Junction. */
async function featureCosts(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [label, settings] of [
    ['all on', []],
    ['audit=false', ['audit=false']],
    ['console=false', ['console=false']],
  ] as const) {
    const junction = await startJunctionProcess(runner, [...settings]);
    try {
      await withPlugin(junction, async () => {
        rows.push(await measure(`/mcp, ${label}`, junction.child.pid, () => openMcpLane(junction.base, 'echo', ARGS), [64]));
        rows.push(await measure(`/api, ${label}`, junction.child.pid, httpLane(junction.base, '/api/tools/echo', JSON.stringify(ARGS), apiOk), [64]));
      });
    } finally {
      await junction.stop();
    }
  }
  return rows;
}

if (process.env.BENCH_FEATURES === '1') {
  const loadBefore = loadavg();
  const features = await featureCosts();
  console.log(`\nfeature costs at 64 connections, each pair in a fresh Junction; load average ${loadBefore.map((l) => fmt(l, 2)).join(' ')} before`);
  console.log(table(['variant', 'calls/s', 'p50 ms', 'p99 ms', 'cpu ms/call'], features.map((row) => [row.name, fmt(row.results[0]!.callsPerSecond, 0), fmt(row.results[0]!.p50, 3), fmt(row.results[0]!.p99, 3), fmt(row.cpuPerCall[0]!, 3)])));
  process.exit(0);
}

const startedAt = performance.now();
const loadBefore = loadavg();
process.stderr.write(`bridge benchmark: ${PHASE_MS / 1000} s per phase${QUICK ? ' (BENCH_QUICK)' : ''}, Junction from ${runner}\n`);
const floors = [await floorHttp(), await floorForward(), await floorSignalR()];
const run = await junctionUnderLoad();
const demoRss = await demoIdleRss();
const loadAfter = loadavg();

const rows = [...floors, run.mcp, run.api];
console.log(
  `\nbridge benchmark — ${PHASE_MS / 1000} s per phase after ${WARMUP_MS} ms warm-up, ${fmt((performance.now() - startedAt) / 1000, 0)} s in all; ` +
    `Junction ran from ${runner === 'dist' ? 'dist/' : 'the sources through tsx (its RSS includes the tsx loader)'}; ` +
    `load average ${loadBefore.map((l) => fmt(l, 2)).join(' ')} before, ${loadAfter.map((l) => fmt(l, 2)).join(' ')} after`,
);
console.log('/mcp is driven by raw JSON-RPC posts after initialize, one session per connection; every row uses the same HTTP client\n');
console.log(
  table(
    ['path', ...LEVELS.flatMap((c) => [`${c}× calls/s`, `${c}× p50 ms`, `${c}× p99 ms`]), 'cpu ms/call @64'],
    rows.map((row) => [
      row.name,
      ...row.results.flatMap((r) => [fmt(r.callsPerSecond, 0), fmt(r.p50, 3), fmt(r.p99, 3)]),
      fmt(row.cpuPerCall[row.cpuPerCall.length - 1] ?? NaN, 3),
    ]),
  ),
);
const reference = floors[1]!;
console.log('\nratio to floor 2 (calls/s at 1, 16, 64; p50 at 1)');
console.log(
  table(
    ['path', ...LEVELS.map((c) => `${c}×`), 'p50@1'],
    rows.map((row) => [row.name, ...row.results.map((r, i) => fmt(r.callsPerSecond / reference.results[i]!.callsPerSecond, 2)), fmt(row.results[0]!.p50 / reference.results[0]!.p50, 2)]),
  ),
);
console.log(`\nJunction CPU ms per call at 1 / 16 / 64: /mcp ${run.mcp.cpuPerCall.map((c) => fmt(c, 3)).join(' / ')}, /api ${run.api.cpuPerCall.map((c) => fmt(c, 3)).join(' / ')}`);
console.log(
  `Junction RSS: idle without workspace ${fmt(mb(run.idleRss), 1)} MB, idle with the demo ${fmt(mb(demoRss), 1)} MB, peak under load ${fmt(mb(run.peakRss), 1)} MB, ` +
    `${AFTER_MS / 1000} s after the load ${fmt(mb(run.afterRss), 1)} MB`,
);
console.log(`MaxListenersExceededWarning printed by Junction: ${run.maxListenerWarnings}`);

const at64 = (row: Row) => row.results[2]!.callsPerSecond / reference.results[2]!.callsPerSecond;
const p50At1 = (row: Row) => row.results[0]!.p50 / reference.results[0]!.p50;
const targets: Target[] = [
  { name: '/mcp calls/s at 64, × floor 2', measured: at64(run.mcp), kind: 'min', limit: 0.4, unit: '×' },
  { name: '/api calls/s at 64, × floor 2', measured: at64(run.api), kind: 'min', limit: 0.6, unit: '×' },
  { name: '/mcp p50 at 1, × floor 2', measured: p50At1(run.mcp), kind: 'max', limit: 1.5, unit: '×' },
  { name: '/api p50 at 1, × floor 2', measured: p50At1(run.api), kind: 'max', limit: 1.5, unit: '×' },
  { name: 'RSS idle, no workspace', measured: mb(run.idleRss), kind: 'max', limit: 90, unit: ' MB', digits: 1 },
  { name: 'RSS idle, demo', measured: mb(demoRss), kind: 'max', limit: 150, unit: ' MB', digits: 1 },
  { name: 'RSS peak under load', measured: mb(run.peakRss), kind: 'max', limit: 200, unit: ' MB', digits: 1 },
  { name: `RSS ${AFTER_MS / 1000} s after the load, × idle`, measured: run.afterRss / run.idleRss, kind: 'max', limit: 1.1, unit: '×' },
  { name: 'MaxListenersExceededWarning', measured: run.maxListenerWarnings, kind: 'max', limit: 0, unit: '', digits: 0 },
];
console.log('\ntargets');
for (const target of targets) console.log(verdict(target));
const failed = rows.reduce((n, row) => n + row.results.reduce((m, r) => m + r.errors, 0), 0);
if (failed > 0) {
  console.log(`\n${failed} calls failed; the numbers above are not comparable.`);
  process.exitCode = 1;
}
