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
 *   /mcp 2026-07-28  a stateless tools/call (no initialize, no session: `_meta` with the protocol version
 *            and client capabilities, MCP-Protocol-Version, Mcp-Method and Mcp-Name headers); issue 29
 *            asks that it cost Junction no more CPU per call than /api, compared within each round
 *   floor 1, the /api request and the 2026-07-28 request: the same two requests answered by floor 1 as
 *            Junction answers them, so the CPU the request shapes alone cost Node's http is printed beside
 *            that comparison
 *
 * Every path is measured at each level in ROUNDS interleaved rounds (order rotated per round) and the
 * ratio to floor 2 is taken within each round, median over rounds: this machine's speed drifts with
 * other processes and CPU idle states, and a floor measured minutes before Junction would carry that
 * drift into the ratio. Printed: calls/s and p50/p99 at 1, 16 and 64 connections, Junction's CPU ms
 * per call (all its threads: the process's CPU time) and RSS (idle without a workspace 2 s and 15 s
 * after ready, idle with the demo, idle with the plugin connected, peak under load, and a while after), ratios to floor 2 (CPU per
 * call included: the measure that holds on a machine shared with other load) and the issue's targets. Every Junction feature stays on (argument validation, admission, observers,
 * console events, audit trail). Environment:
 *   BENCH_QUICK=1      1 s phases and an 8 s "after" wait, about a minute and a half in all
 *   BENCH_SECONDS=N    seconds per measured phase (default 3; quick 1)
 *   BENCH_ROUNDS=N     interleaved rounds per level (default 5: with 3, one disturbed round in a
 *                      level's three could flip a verdict from run to run on this machine)
 *   BENCH_JUNCTION=tsx run the sources through tsx instead of dist/ (which is otherwise brought up to
 *                      date first with npm start's incremental tsc -b; tsx adds ~100 MB of RSS)
 *   BENCH_FEATURES=1   instead, what features cost: /mcp and /api at 64 connections in three Junctions
 *                      (everything on, audit trail off, console off), interleaved the same way
 *   BENCH_PROJECTS=1   instead, routing among many projects: a pinned /api call at 1 and 16 connections with
 *                      one project connected and with BENCH_PROJECT_COUNT (default 1,000), interleaved the
 *                      same way; p50 and CPU ratios and Junction's RSS per connected plugin (5 s after
 *                      the crowd connected, and once quiet)
 *   BENCH_LARGE=1      instead, large payloads: results and arguments of 1 MB and 16 MB (random base64,
 *                      as a screenshot is) through /mcp and /api at 1 and 4 connections beside a floor
 *                      forwarding the same bytes over one ws, interleaved the same way, each case with a
 *                      floor and a Junction of its own; calls/s ratios, Junction's and the floor server's
 *                      peak RSS less their idle RSS per MB in flight, and every party's CPU per call
 *                      (server, far end, load generator)
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { projectPathHash } from '../plugins/sdk/index.js';
import { IDLE_HEAP } from '../src-main/app/runtime/idle-heap.js';
import { chooseRunner, countWarnings, startJunctionProcess, untilToolListed, type RunningJunction } from './support/junction-process.js';
import { httpLane, runLoad, type HttpReply, type Lane, type LoadResult } from './support/load.js';
import { openMcpLane, openModernMcpLane } from './support/mcp-session.js';
import { delay, procStats, startTs, watchPeakRss, type Child } from './support/processes.js';
import { base64Payload } from './support/payload-data.js';
import { mb, table, verdict, type Target } from './support/report.js';
import { fmt, median } from './support/stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
const PHASE_MS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1 : 3)) * 1000;
const WARMUP_MS = QUICK ? 300 : 500;
/** Rounds per level; every path is measured once per round, in a rotated order. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Before the first level, each path is driven this long at 16 connections so its JIT is warm. */
const SERVER_WARMUP_MS = QUICK ? 600 : 2000;
/** A pause for a connection burst to settle before RSS is read. */
const SETTLE_MS = QUICK ? 1500 : 5000;
/**
 * When idle RSS is read, after /readyz first answers: early (the issue's 2 s) and settled. Junction
 * collects what start-up left 1 s after start and again once it has been quiet for 10 s
 * (src-main/app/runtime/idle-heap.ts), so the settled read comes after both (BENCH_QUICK reads it
 * sooner, before the second).
 */
const EARLY_RSS_MS = 2000;
const IDLE_MS = QUICK ? 4000 : 15_000;
const AFTER_MS = QUICK ? 8000 : 60_000;
const LEVELS = [1, 16, 64] as const;
const ARGS = { text: 'x'.repeat(64) };
const RPC_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: ARGS } });
const runner = chooseRunner(process.env.BENCH_JUNCTION);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** One way of making a call, and the server process whose CPU it is charged to. */
interface Path {
  name: string;
  serverPid: number;
  /** The process the server forwards to (the plugin, the floor's far end), for the large-payload part's CPU table. */
  farEndPid?: number;
  openLane: () => Promise<Lane>;
}

interface Row {
  name: string;
  /** Per level, one result per round. */
  rounds: LoadResult[][];
  /** Per level, server CPU ms per call in each round. */
  cpuPerCall: number[][];
}

/** CPU ms per call of each party of a phase: the server, the process behind it (if named) and this load generator. */
interface PhaseCpu {
  server: number;
  farEnd: number;
  load: number;
}

const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function phase(path: Path, concurrency: number): Promise<{ result: LoadResult; cpuPerCall: number; cpu: PhaseCpu }> {
  const cpuOf = (pid: number | undefined) => (pid === undefined ? NaN : (procStats(pid)?.cpuMs ?? NaN));
  let atOpen: PhaseCpu = { server: NaN, farEnd: NaN, load: NaN };
  let used: PhaseCpu = atOpen;
  const result = await runLoad(path.openLane, {
    concurrency,
    durationMs: PHASE_MS,
    warmupMs: WARMUP_MS,
    window: {
      open: () => (atOpen = { server: cpuOf(path.serverPid), farEnd: cpuOf(path.farEndPid), load: ownCpuMs() }),
      close: () => (used = { server: cpuOf(path.serverPid) - atOpen.server, farEnd: cpuOf(path.farEndPid) - atOpen.farEnd, load: ownCpuMs() - atOpen.load }),
    },
  });
  if (result.errors > 0) console.error(`${path.name} at ${concurrency}: ${result.errors} of ${result.calls} calls failed`);
  const cpu = { server: used.server / result.calls, farEnd: used.farEnd / result.calls, load: used.load / result.calls };
  return { result, cpuPerCall: cpu.server, cpu };
}

/**
 * Every path at every level, interleaved: round r measures each path once, in an order rotated by r,
 * so a change in the machine's load (other processes, CPU frequency, a busy neighbour) falls on every
 * path alike instead of on whichever was measured last. Each path's ratio to the reference is taken
 * within a round and the median over rounds is reported.
 */
async function measureInterleaved(paths: readonly Path[], levels: readonly number[]): Promise<Row[]> {
  const rows: Row[] = paths.map((path) => ({ name: path.name, rounds: [], cpuPerCall: [] }));
  for (const path of paths) await runLoad(path.openLane, { concurrency: 16, durationMs: SERVER_WARMUP_MS, warmupMs: 0 });
  for (const [levelIndex, concurrency] of levels.entries()) {
    for (const row of rows) {
      row.rounds[levelIndex] = [];
      row.cpuPerCall[levelIndex] = [];
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < paths.length; k++) {
        const index = (k + round) % paths.length;
        const measured = await phase(paths[index]!, concurrency);
        rows[index]!.rounds[levelIndex]!.push(measured.result);
        rows[index]!.cpuPerCall[levelIndex]!.push(measured.cpuPerCall);
      }
    }
    process.stderr.write(`  ×${concurrency}: ${rows.map((row) => `${row.name} ${fmt(median(row.rounds[levelIndex]!.map((r) => r.callsPerSecond)), 0)}/s`).join(', ')}\n`);
  }
  return rows;
}

/** Median over rounds of a row's `pick` at one level. */
const levelMedian = (row: Row, levelIndex: number, pick: (r: LoadResult) => number) => median(row.rounds[levelIndex]!.map(pick));
/** Median over rounds of the within-round ratio of `row` to `reference`. */
const ratioMedian = (row: Row, reference: Row, levelIndex: number, pick: (r: LoadResult) => number) =>
  median(row.rounds[levelIndex]!.map((r, round) => pick(r) / pick(reference.rounds[levelIndex]![round]!)));

const rpcOk = (reply: HttpReply) => reply.status === 200 && reply.raw.includes('"isError":false');

async function listeningChild(name: string, file: string, args: string[] = []): Promise<{ child: Child; base: URL }> {
  const child = startTs(name, here(file), args);
  const [, port] = await child.waitFor(/^listening (\d+)$/);
  return { child, base: new URL(`http://127.0.0.1:${port}`) };
}

function signalRLane(base: URL): () => Promise<Lane> {
  return async () => {
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
}

interface Running {
  paths: Path[];
  stop(): Promise<void>;
}

/** The three floors, each in its own process (floor 2's echo client in one more), kept up for the whole run. */
async function startFloors(): Promise<Running> {
  const children: Child[] = [];
  try {
    const http = await listeningChild('http floor', './support/floors/http-floor.ts');
    children.push(http.child);
    const forward = await listeningChild('forward floor', './support/floors/forward-floor.ts');
    children.push(forward.child);
    const connected = forward.child.waitFor(/^client connected$/);
    children.push(startTs('floor echo client', here('./support/floors/echo-client.ts'), [`ws://127.0.0.1:${forward.base.port}/`]));
    await connected;
    const hub = await listeningChild('signalr hub', './support/floors/signalr-hub.ts');
    children.push(hub.child);
    return {
      paths: [
        { name: 'floor 1: node http answers', serverPid: http.child.pid, openLane: httpLane(http.base, '/mcp', RPC_BODY, rpcOk) },
        { name: 'floor 2: http → ws → echo process', serverPid: forward.child.pid, openLane: httpLane(forward.base, '/mcp', RPC_BODY, rpcOk) },
        { name: 'floor 3: signalr invoke → hub', serverPid: hub.child.pid, openLane: signalRLane(hub.base) },
        { name: 'floor 1, the /api request', serverPid: http.child.pid, openLane: httpLane(http.base, '/api/tools/echo', JSON.stringify(ARGS), apiOk) },
        { name: 'floor 1, the 2026-07-28 request', serverPid: http.child.pid, openLane: () => openModernMcpLane(http.base, 'echo', ARGS) },
      ],
      stop: async () => void (await Promise.all(children.map((child) => child.stop()))),
    };
  } catch (error) {
    await Promise.all(children.map((child) => child.stop()));
    throw error;
  }
}

const apiOk = (reply: HttpReply) => reply.status === 200;

interface JunctionSetup {
  /** Appended to the paths' names. */
  label?: string;
  /** Runs once Junction is ready, before the plugin connects. */
  beforePlugin?: (junction: RunningJunction) => Promise<void>;
  /** The echo plugin's project root (project-routing=multi gives it a pin). */
  project?: string;
}

/** A Junction with the echo plugin connected, and its /mcp and /api paths labelled with `label`. */
async function startJunctionWithPlugin(settings: readonly string[], setup: JunctionSetup = {}): Promise<Running & { junction: RunningJunction }> {
  const { label = '', beforePlugin, project } = setup;
  const junction = await startJunctionProcess(runner, settings);
  let plugin: Child | undefined;
  try {
    await beforePlugin?.(junction);
    plugin = startTs('echo plugin', here('./support/echo-plugin.ts'), [junction.hubEndpoint, ...(project ? [project] : [])]);
    await plugin.waitFor(/^connected$/);
    await untilToolListed(junction.base, 'echo');
  } catch (error) {
    await Promise.all([plugin?.stop(), junction.stop()]);
    throw error;
  }
  const started = plugin;
  const pid = junction.child.pid;
  return {
    junction,
    paths: [
      { name: `Junction /mcp tools/call${label}`, serverPid: pid, openLane: () => openMcpLane(junction.base, 'echo', ARGS) },
      { name: `Junction POST /api/tools/echo${label}`, serverPid: pid, openLane: httpLane(junction.base, '/api/tools/echo', JSON.stringify(ARGS), apiOk) },
      { name: `Junction /mcp 2026-07-28 tools/call${label}`, serverPid: pid, openLane: () => openModernMcpLane(junction.base, 'echo', ARGS) },
    ],
    stop: async () => {
      await started.stop();
      await junction.stop();
    },
  };
}

interface IdleRss {
  /** EARLY_RSS_MS after ready. */
  early: number;
  /** IDLE_MS after ready: the idle figure. */
  settled: number;
}

async function idleRssOf(pid: number): Promise<IdleRss> {
  await delay(EARLY_RSS_MS);
  const early = procStats(pid)?.rssBytes ?? NaN;
  await delay(IDLE_MS - EARLY_RSS_MS);
  return { early, settled: procStats(pid)?.rssBytes ?? NaN };
}

async function demoIdleRss(): Promise<IdleRss> {
  const junction = await startJunctionProcess(runner, ['demo=true']);
  try {
    return await idleRssOf(junction.child.pid);
  } finally {
    await junction.stop();
  }
}

const ms = (n: number) => fmt(n, 3);

/**
 * What switching one feature off buys at 64 connections: three Junctions (all on, audit off, console
 * off), each with its own echo plugin, measured interleaved like the main run.
 */
async function featureCosts(): Promise<void> {
  const loadBefore = loadavg();
  const variants = [
    ['all on', []],
    ['audit=false', ['audit=false']],
    ['console=false', ['console=false']],
  ] as const;
  const running: Running[] = [];
  try {
    for (const [label, settings] of variants) running.push(await startJunctionWithPlugin(settings, { label: `, ${label}` }));
    const rows = await measureInterleaved(running.flatMap((r) => r.paths), [64]);
    console.log(`\nfeature costs at 64 connections, ${ROUNDS} interleaved rounds, medians; load average ${loadBefore.map((l) => fmt(l, 2)).join(' ')} before`);
    console.log(
      table(
        ['variant', 'calls/s', 'p50 ms', 'p99 ms', 'cpu ms/call'],
        rows.map((row) => [row.name, fmt(levelMedian(row, 0, (r) => r.callsPerSecond), 0), ms(levelMedian(row, 0, (r) => r.p50)), ms(levelMedian(row, 0, (r) => r.p99)), ms(median(row.cpuPerCall[0]!))]),
      ),
    );
  } finally {
    await Promise.all(running.map((r) => r.stop()));
  }
}

/** The targets' verdicts, and a failed exit when any call of `rows` failed (then nothing above compares). */
function printVerdicts(targets: readonly Target[], rows: readonly Row[]): void {
  console.log('\ntargets');
  for (const target of targets) console.log(verdict(target));
  const failed = rows.reduce((n, row) => n + row.rounds.flat().reduce((m, r) => m + r.errors, 0), 0);
  if (failed > 0) {
    console.log(`\n${failed} calls failed; the numbers above are not comparable.`);
    process.exitCode = 1;
  }
}

/** Projects connected in the crowded Junction of BENCH_PROJECTS (the echo plugin's among them). */
const PROJECTS = Number(process.env.BENCH_PROJECT_COUNT ?? 1000);
const ECHO_PROJECT = '/bench/echo-project';

/**
 * Routing among many projects: two Junctions in project-routing=multi, each with the echo plugin as
 * the editor of its own project; the second also has PROJECTS - 1 other projects connected (one
 * crowd process). The pinned POST /p/{pin}/api/tools/echo is measured at 1 and 16 connections,
 * interleaved; printed: p50 and CPU per call of each and their ratio, and what one connected plugin
 * costs Junction in RSS (the crowded Junction's RSS after the crowd connected, less before, per plugin:
 * read once the burst settled, and again after two of Junction's quiet periods, once it gave back what
 * the handshakes left).
 */
async function manyProjects(): Promise<void> {
  const loadBefore = loadavg();
  const pin = projectPathHash(ECHO_PROJECT).slice(0, 12);
  const settings = ['project-routing=multi'];
  const running: Running[] = [];
  let crowd: Child | undefined;
  try {
    const alone = await startJunctionWithPlugin(settings, { project: ECHO_PROJECT });
    running.push(alone);
    const crowded = await startJunctionWithPlugin(settings, { project: ECHO_PROJECT });
    running.push(crowded);
    const pid = crowded.junction.child.pid;
    await delay(SETTLE_MS);
    const rssBefore = procStats(pid)?.rssBytes ?? NaN;
    crowd = startTs('crowd plugins', here('./support/crowd-plugins.ts'), [crowded.junction.hubEndpoint, String(PROJECTS - 1)]);
    await crowd.waitFor(/^connected \d+$/, 300_000);
    await untilToolListed(crowded.junction.base, 'crowd-echo');
    await delay(SETTLE_MS);
    const rssAfter = procStats(pid)?.rssBytes ?? NaN;
    // Junction gives back what the burst of handshakes left once two of its quiet periods have passed.
    await delay(2 * IDLE_HEAP.quietMs);
    const rssQuiet = procStats(pid)?.rssBytes ?? NaN;
    const lane = (junction: RunningJunction) => httpLane(junction.base, `/p/${pin}/api/tools/echo`, JSON.stringify(ARGS), apiOk);
    const paths: Path[] = [
      { name: 'pinned /api, 1 project', serverPid: alone.junction.child.pid, openLane: lane(alone.junction) },
      { name: `pinned /api, ${PROJECTS} projects`, serverPid: pid, openLane: lane(crowded.junction) },
    ];
    const levels = [1, 16] as const;
    const rows = await measureInterleaved(paths, levels);
    const [one, many] = rows as [Row, Row];
    const perPluginKb = (rss: number) => (rss - rssBefore) / 1024 / (PROJECTS - 1);
    console.log(`\nmany projects (project-routing=multi), ${ROUNDS} interleaved rounds of ${PHASE_MS / 1000} s, medians; Junction from ${runner}; load average ${loadBefore.map((l) => fmt(l, 2)).join(' ')} before, ${loadavg().map((l) => fmt(l, 2)).join(' ')} after`);
    console.log(
      table(
        ['path', ...levels.flatMap((c) => [`${c}× calls/s`, `${c}× p50 ms`, `${c}× cpu ms/call`])],
        rows.map((row) => [row.name, ...levels.flatMap((_, i) => [fmt(levelMedian(row, i, (r) => r.callsPerSecond), 0), ms(levelMedian(row, i, (r) => r.p50)), ms(median(row.cpuPerCall[i]!))])]),
      ),
    );
    console.log(
      `Junction RSS ${fmt(mb(rssBefore), 1)} MB before the crowd; with it ${fmt(mb(rssAfter), 1)} MB ${SETTLE_MS / 1000} s after it connected (${fmt(perPluginKb(rssAfter), 1)} KB per connected plugin) and ${fmt(mb(rssQuiet), 1)} MB ${(2 * IDLE_HEAP.quietMs + SETTLE_MS) / 1000} s after, once quiet (${fmt(perPluginKb(rssQuiet), 1)} KB per connected plugin)`,
    );
    const targets: Target[] = [
      { name: `p50 at 1, ${PROJECTS} projects × 1`, measured: ratioMedian(many, one, 0, (r) => r.p50), kind: 'max', limit: 1.1, unit: '×' },
      { name: `p50 at 16, ${PROJECTS} projects × 1`, measured: ratioMedian(many, one, 1, (r) => r.p50), kind: 'max', limit: 1.1, unit: '×' },
    ];
    printVerdicts(targets, rows);
  } finally {
    await crowd?.stop();
    await Promise.all(running.map((r) => r.stop()));
  }
}

/** Payload sizes of the large-payload part, in base64 characters (results) or characters (arguments). */
const LARGE_SIZES = [1024 * 1024, 16 * 1024 * 1024] as const;
const LARGE_LEVELS = [1, 4] as const;

interface LargeCase {
  label: string;
  tool: 'payload-result' | 'payload-argument';
  bytes: number;
  args: Record<string, unknown>;
}

function largeCases(): LargeCase[] {
  return LARGE_SIZES.flatMap((bytes) => [
    { label: `result ${mb(bytes)} MB`, tool: 'payload-result' as const, bytes, args: { bytes } },
    { label: `argument ${mb(bytes)} MB`, tool: 'payload-argument' as const, bytes, args: { data: base64Payload(bytes) } },
  ]);
}

interface Floor {
  base: URL;
  pid: number;
  farEndPid: number;
}

/** The floor, /mcp and /api lanes of one case. */
function largePaths(floor: Floor, junction: RunningJunction, pluginPid: number, c: LargeCase): Path[] {
  const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: c.tool, arguments: c.args } });
  const pid = junction.child.pid;
  return [
    { name: `floor: http → ws → payload process, ${c.label}`, serverPid: floor.pid, farEndPid: floor.farEndPid, openLane: httpLane(floor.base, '/mcp', rpc, rpcOk) },
    { name: `Junction /mcp, ${c.label}`, serverPid: pid, farEndPid: pluginPid, openLane: () => openMcpLane(junction.base, c.tool, c.args) },
    { name: `Junction /api, ${c.label}`, serverPid: pid, farEndPid: pluginPid, openLane: httpLane(junction.base, `/api/tools/${c.tool}`, JSON.stringify(c.args), apiOk) },
  ];
}

/** The processes of one case: the floor (server and far end) and Junction with the payload plugin, and their RSS once idle. */
interface CaseParties {
  floor: Floor;
  junction: RunningJunction;
  pluginPid: number;
  idleRss: { floor: number; junction: number };
  stop(): Promise<void>;
}

/**
 * A floor and a Junction of their own for one case, so no case's retained memory lands on another's
 * figure; both idle IDLE_MS after the far end and the plugin connected before their RSS is read.
 */
async function caseParties(): Promise<CaseParties> {
  const children: Child[] = [];
  let junction: RunningJunction | undefined;
  const stop = async () => {
    await Promise.all(children.map((child) => child.stop()));
    await junction?.stop();
  };
  try {
    const served = await listeningChild('payload floor', './support/floors/forward-floor.ts');
    children.push(served.child);
    const connected = served.child.waitFor(/^client connected$/);
    const farEnd = startTs('payload floor client', here('./support/floors/payload-client.ts'), [`ws://127.0.0.1:${served.base.port}/`]);
    children.push(farEnd);
    await connected;
    // Junction's defaults (hub messages 128 MB, HTTP bodies 32 MiB) take every size measured here.
    junction = await startJunctionProcess(runner, []);
    const plugin = startTs('payload plugin', here('./support/payload-plugin.ts'), [junction.hubEndpoint]);
    children.push(plugin);
    await plugin.waitFor(/^connected$/);
    await untilToolListed(junction.base, 'payload-result');
    await delay(IDLE_MS);
    const rss = (pid: number) => procStats(pid)?.rssBytes ?? NaN;
    const floor: Floor = { base: served.base, pid: served.child.pid, farEndPid: farEnd.pid };
    return { floor, junction, pluginPid: plugin.pid, idleRss: { floor: rss(floor.pid), junction: rss(junction.child.pid) }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Large payloads: each case (results or arguments of one size) with a floor and a Junction of its own;
 * its three paths at 1 and 4 connections in ROUNDS rounds, the order rotated per round. Peak RSS per MB
 * in flight is a process's peak RSS over a level less its idle RSS (read IDLE_MS after the case's
 * processes connected, before its first call), divided by the payload size × connections: what
 * holding the payloads costs, V8's heap growth and the memory its collector has yet to free included.
 * Junction's is the target; the floor server's, measured the same way, is what forwarding alone costs.
 */
async function largePayloads(): Promise<void> {
  const loadBefore = loadavg();
  const rows: string[][] = [];
  const cpuRows: string[][] = [];
  const targets: Target[] = [];
  let errors = 0;
  for (const c of largeCases()) {
    const parties = await caseParties();
    try {
      const { floor, junction, idleRss } = parties;
      const paths = largePaths(floor, junction, parties.pluginPid, c);
      for (const concurrency of LARGE_LEVELS) {
        const peaks = { floor: watchPeakRss(floor.pid, 20), junction: watchPeakRss(junction.child.pid, 20) };
        const perPath: LoadResult[][] = paths.map(() => []);
        const cpus: PhaseCpu[][] = paths.map(() => []);
        for (let round = 0; round < ROUNDS; round++) {
          for (let k = 0; k < paths.length; k++) {
            const index = (k + round) % paths.length;
            const { result, cpu } = await phase(paths[index]!, concurrency);
            errors += result.errors;
            perPath[index]!.push(result);
            cpus[index]!.push(cpu);
          }
        }
        const peakRss = { floor: peaks.floor.stop(), junction: peaks.junction.stop() };
        const inFlightMb = mb(c.bytes) * concurrency;
        const perMb = (party: 'floor' | 'junction') => mb(peakRss[party] - idleRss[party]) / inFlightMb;
        const [floorRounds, ...junctionRounds] = perPath as [LoadResult[], LoadResult[], LoadResult[]];
        const ratios = junctionRounds.map((rounds) => median(rounds.map((r, i) => r.callsPerSecond / floorRounds[i]!.callsPerSecond)));
        rows.push([
          c.label,
          `${concurrency}×`,
          ...perPath.map((rounds) => fmt(median(rounds.map((r) => r.callsPerSecond)), 1)),
          ...ratios.map((r) => fmt(r, 2)),
          `${fmt(mb(idleRss.junction), 0)} / ${fmt(mb(peakRss.junction), 0)}`,
          fmt(perMb('junction'), 2),
          `${fmt(mb(idleRss.floor), 0)} / ${fmt(mb(peakRss.floor), 0)}`,
          fmt(perMb('floor'), 2),
        ]);
        const cpuCell = (party: keyof PhaseCpu) => cpus.map((rounds) => fmt(median(rounds.map((cpu) => cpu[party])), 1));
        cpuRows.push([c.label, `${concurrency}×`, ...cpuCell('server'), ...cpuCell('farEnd'), ...cpuCell('load')]);
        ratios.forEach((ratio, i) => targets.push({ name: `${['/mcp', '/api'][i]} ${c.label} at ${concurrency}, × floor`, measured: ratio, kind: 'min', limit: 0.8, unit: '×' }));
        targets.push({ name: `RSS per MB in flight, ${c.label} at ${concurrency}`, measured: perMb('junction'), kind: 'max', limit: 4, unit: '' });
        process.stderr.write(`  ${c.label} ×${concurrency}: ${rows.at(-1)!.slice(2).join(' ')}\n`);
      }
    } finally {
      await parties.stop();
    }
  }
  console.log(`\nlarge payloads (random base64), ${ROUNDS} interleaved rounds of ${PHASE_MS / 1000} s, medians; Junction from ${runner}; a floor and a Junction per case; load average ${loadBefore.map((l) => fmt(l, 2)).join(' ')} before, ${loadavg().map((l) => fmt(l, 2)).join(' ')} after`);
  console.log(table(['payload', 'conns', 'floor calls/s', '/mcp calls/s', '/api calls/s', '/mcp × floor', '/api × floor', 'Junction RSS MB idle / peak', 'per MB in flight', 'floor server RSS MB idle / peak', 'per MB in flight'], rows));
  console.log(`RSS per MB in flight = (the process's peak RSS over the level − its idle RSS ${IDLE_MS / 1000} s after the case's processes connected) ÷ (payload MB × connections)`);
  console.log('\nCPU ms per call, medians over rounds: the server (floor process or Junction), the process behind it (floor far end or payload plugin), this load generator');
  console.log(table(['payload', 'conns', 'floor', '/mcp', '/api', 'floor far end', 'plugin (/mcp)', 'plugin (/api)', 'load (floor)', 'load (/mcp)', 'load (/api)'], cpuRows));
  console.log('\ntargets');
  for (const target of targets) console.log(verdict(target));
  if (errors > 0) {
    console.log(`\n${errors} calls failed; the numbers above are not comparable.`);
    process.exitCode = 1;
  }
}

if (process.env.BENCH_LARGE === '1') {
  await largePayloads();
  process.exit(0);
}

if (process.env.BENCH_PROJECTS === '1') {
  await manyProjects();
  process.exit(0);
}

if (process.env.BENCH_FEATURES === '1') {
  await featureCosts();
  process.exit(0);
}

const startedAt = performance.now();
const loadBefore = loadavg();
process.stderr.write(`bridge benchmark: ${PHASE_MS / 1000} s per phase, ${ROUNDS} interleaved rounds${QUICK ? ' (BENCH_QUICK)' : ''}, Junction from ${runner}\n`);
const floors = await startFloors();
let rows: Row[];
let idleRss: IdleRss;
let peakRss: number;
let afterRss: number;
/** With the plugin connected, IDLE_MS after, before any call: what the load is compared to. */
let connectedRss: number;
let maxListenerWarnings: number;
try {
  let idle: IdleRss = { early: NaN, settled: NaN };
  // Idle RSS is read before the plugin connects: no workspace and nothing attached.
  const junction = await startJunctionWithPlugin([], {
    beforePlugin: async (started) => {
      idle = await idleRssOf(started.child.pid);
    },
  });
  idleRss = idle;
  try {
    const pid = junction.junction.child.pid;
    connectedRss = (await idleRssOf(pid)).settled;
    const peak = watchPeakRss(pid);
    rows = await measureInterleaved([...floors.paths, ...junction.paths], LEVELS);
    peakRss = peak.stop();
    await floors.stop();
    process.stderr.write(`  waiting ${AFTER_MS / 1000} s after the load for RSS to settle\n`);
    await delay(AFTER_MS);
    afterRss = procStats(pid)?.rssBytes ?? NaN;
    maxListenerWarnings = countWarnings(junction.junction, 'MaxListenersExceededWarning');
  } finally {
    await junction.stop();
  }
} finally {
  await floors.stop();
}
const demoRss = await demoIdleRss();
const loadAfter = loadavg();

const [, reference, , floorApiRow, floorModernRow, mcpRow, apiRow, modernRow] = rows as [Row, Row, Row, Row, Row, Row, Row, Row];
console.log(
  `\nbridge benchmark — ${ROUNDS} interleaved rounds of ${PHASE_MS / 1000} s per path and level after ${WARMUP_MS} ms warm-up, medians over rounds, ${fmt((performance.now() - startedAt) / 1000, 0)} s in all; ` +
    `Junction ran from ${runner === 'dist' ? 'dist/' : 'the sources through tsx (its RSS includes the tsx loader)'}; ` +
    `load average ${loadBefore.map((l) => fmt(l, 2)).join(' ')} before, ${loadAfter.map((l) => fmt(l, 2)).join(' ')} after`,
);
console.log('/mcp is driven by raw JSON-RPC posts after initialize, one session per connection; every row uses the same HTTP client\n');
console.log(
  table(
    ['path', ...LEVELS.flatMap((c) => [`${c}× calls/s`, `${c}× p50 ms`, `${c}× p99 ms`]), 'cpu ms/call @64'],
    rows.map((row) => [
      row.name,
      ...LEVELS.flatMap((_, i) => [fmt(levelMedian(row, i, (r) => r.callsPerSecond), 0), ms(levelMedian(row, i, (r) => r.p50)), ms(levelMedian(row, i, (r) => r.p99))]),
      ms(median(row.cpuPerCall[LEVELS.length - 1]!)),
    ]),
  ),
);
const callsPerSecond = (r: LoadResult) => r.callsPerSecond;
const p50 = (r: LoadResult) => r.p50;
console.log('\nratio to floor 2 in the same round, median over rounds (calls/s at 1, 16, 64; p50 at 1)');
console.log(table(['path', ...LEVELS.map((c) => `${c}×`), 'p50@1'], rows.map((row) => [row.name, ...LEVELS.map((_, i) => fmt(ratioMedian(row, reference, i, callsPerSecond), 2)), fmt(ratioMedian(row, reference, 0, p50), 2)])));
const cpuText = (row: Row) => row.cpuPerCall.map((c) => ms(median(c))).join(' / ');
console.log(`\nJunction CPU ms per call at 1 / 16 / 64: /mcp ${cpuText(mcpRow)}, /api ${cpuText(apiRow)}, /mcp 2026-07-28 ${cpuText(modernRow)}`);
/** A row's CPU per call over another row's (floor 2 unless told) in the same round, median over rounds. */
const cpuRatio = (row: Row, levelIndex: number, over: Row = reference) => median(row.cpuPerCall[levelIndex]!.map((cpu, round) => cpu / over.cpuPerCall[levelIndex]![round]!));
const cpuRatios = (row: Row, over?: Row) => LEVELS.map((_, i) => fmt(cpuRatio(row, i, over), 2)).join(' / ');
console.log(`Junction CPU per call ÷ floor 2's at 1 / 16 / 64: /mcp ${cpuRatios(mcpRow)}, /api ${cpuRatios(apiRow)}, /mcp 2026-07-28 ${cpuRatios(modernRow)}`);
console.log(`/mcp 2026-07-28 CPU per call ÷ /api's at 1 / 16 / 64: ${cpuRatios(modernRow, apiRow)}`);
console.log(`the same two requests answered by floor 1 (bare Node http, no work but the answer), 2026-07-28 ÷ /api at 1 / 16 / 64: ${cpuRatios(floorModernRow, floorApiRow)}`);
console.log(
  `Junction RSS ${IDLE_MS / 1000} s after ready (${EARLY_RSS_MS / 1000} s after ready): idle without workspace ${fmt(mb(idleRss.settled), 1)} MB (${fmt(mb(idleRss.early), 1)}), ` +
    `idle with the demo ${fmt(mb(demoRss.settled), 1)} MB (${fmt(mb(demoRss.early), 1)}); peak under load ${fmt(mb(peakRss), 1)} MB, ` +
    `idle with the plugin connected ${fmt(mb(connectedRss), 1)} MB, ${AFTER_MS / 1000} s after the load ${fmt(mb(afterRss), 1)} MB (${fmt(afterRss / idleRss.settled, 2)}× idle without workspace)`,
);
console.log(`MaxListenersExceededWarning printed by Junction: ${maxListenerWarnings}`);

const top = LEVELS.length - 1;
const targets: Target[] = [
  { name: '/mcp CPU per call at 64, × floor 2', measured: cpuRatio(mcpRow, top), kind: 'max', limit: 3, unit: '×' },
  { name: '/api CPU per call at 64, × floor 2', measured: cpuRatio(apiRow, top), kind: 'max', limit: 2.5, unit: '×' },
  { name: '/mcp 2026-07-28 CPU per call at 64, × /api', measured: cpuRatio(modernRow, top, apiRow), kind: 'max', limit: 1, unit: '×' },
  { name: '/mcp calls/s at 64, × floor 2', measured: ratioMedian(mcpRow, reference, top, callsPerSecond), kind: 'min', limit: 0.4, unit: '×' },
  { name: '/api calls/s at 64, × floor 2', measured: ratioMedian(apiRow, reference, top, callsPerSecond), kind: 'min', limit: 0.55, unit: '×' },
  { name: '/mcp p50 at 1, × floor 2', measured: ratioMedian(mcpRow, reference, 0, p50), kind: 'max', limit: 2.5, unit: '×' },
  { name: '/api p50 at 1, × floor 2', measured: ratioMedian(apiRow, reference, 0, p50), kind: 'max', limit: 2, unit: '×' },
  { name: `RSS idle, no workspace, ${EARLY_RSS_MS / 1000} s after ready`, measured: mb(idleRss.early), kind: 'max', limit: 90, unit: ' MB', digits: 1 },
  { name: `RSS idle, no workspace, ${IDLE_MS / 1000} s after ready`, measured: mb(idleRss.settled), kind: 'max', limit: 80, unit: ' MB', digits: 1 },
  { name: 'RSS idle, demo', measured: mb(demoRss.settled), kind: 'max', limit: 150, unit: ' MB', digits: 1 },
  { name: 'RSS peak under load', measured: mb(peakRss), kind: 'max', limit: 200, unit: ' MB', digits: 1 },
  // Against the same Junction before its first call, plugin connected: what the load left behind, not what a connected plugin holds.
  { name: `RSS ${AFTER_MS / 1000} s after the load, × idle with the plugin connected`, measured: afterRss / connectedRss, kind: 'max', limit: 1.1, unit: '×' },
  { name: 'MaxListenersExceededWarning', measured: maxListenerWarnings, kind: 'max', limit: 0, unit: '', digits: 0 },
];
printVerdicts(targets, rows);
