/**
 * The audit trail's cost, in ratios measured in this run:
 *  1. calls/s at 64 concurrent callers through POST /api with the trail on vs off. Both Junctions run at
 *     once, each in its own process (`junction serve`), and are loaded in turn in pairs of phases (the
 *     order alternating per pair); the ratio is taken within each pair, median over pairs, since this
 *     machine's speed drifts from minute to minute. This process is the load generator, with the same
 *     lean keep-alive HTTP client as bench:bridge: a heavier client would take more of the two cores and
 *     leave the trail's share of the work looking smaller than it is.
 *  2. p50/p99 of one filtered history page at 1,000,000 recorded calls, and the database size per
 *     1,000,000 calls.
 * AUDIT_BENCH_SECONDS (default 5) sets each throughput phase, AUDIT_BENCH_ROUNDS (default 6) the pairs;
 * AUDIT_BENCH_ROWS (default 1,000,000) the table;
 *  3. the CPU per recorded call on all threads (the main thread's, the writer's and V8's helpers'), search
 *     indexing and retention included, in the steady state, less the same loop recording nothing; and
 *     what each of the writer's parts costs on its own. AUDIT_BENCH_LOOP_CALLS (default 100,000) per round.
 *  4. the p99 of agent calls through /api at 16 connections with 1,000,000 calls in the trail while the
 *     console pages history as fast as it can, against the same run without paging (issue 23).
 * AUDIT_BENCH_PARTS (default `throughput,loop,history,paging`) which parts run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AuditStore, auditDbPath, compileRedaction, type AuditCallInput } from '../src-main/audit/index.js';
import { TIMED_BATCH } from '../src-main/audit/store.js';
import { openAuditDatabase } from '../src-main/audit/database.js';
import { storedCall } from '../src-main/audit/rows.js';
import { SharedRows } from '../src-main/audit/shared-rows.js';
import { searchIndexStatements, timeMapStatement } from '../src-main/audit/schema.js';
import { INDEX_CHUNK, INSERT_CALLS } from '../src-main/audit/writer.js';
import { cliInvocation } from '../src-main/app/paths.js';
import { silentLogger } from '../src-main/shared/log.js';
import { timeOrderedId } from '../src-main/shared/time-ordered-id.js';
import { httpLane, runLoad } from './support/load.js';
import { startTs, type Child } from './support/processes.js';
import { fmt, measureLatency, median } from './support/stats.js';

const SECONDS = Number(process.env.AUDIT_BENCH_SECONDS ?? 5);
const ROWS = Number(process.env.AUDIT_BENCH_ROWS ?? 1_000_000);
const CONCURRENCY = 64;
const ROUNDS = Number(process.env.AUDIT_BENCH_ROUNDS ?? 6);
/** Linux reports process CPU time in clock ticks of 10 ms. */
const TICK_MS = 10;
const PARTS = new Set((process.env.AUDIT_BENCH_PARTS ?? 'throughput,loop,history,paging').split(','));

/** User + system CPU time a process has used so far, in ms (Linux /proc); the load generator's own CPU is not in it. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

interface Round {
  callsPerSecond: number;
  /** Junction's CPU time per call: less sensitive than calls/s to the other load on a shared machine. */
  cpuUsPerCall: number;
}

interface Served {
  child: ChildProcess;
  baseUrl: string;
  stateDir: string;
  /** The console's token, when the console is on. */
  consoleToken?: string;
}

/** `junction serve` on `stateDir` in its own process, with the audit trail on or off and, when asked, the console. */
async function serve(audit: boolean, stateDir: string, withConsole = false): Promise<Served> {
  const args = [...cliInvocation(), 'serve', 'port=0', `state-dir=${stateDir}`, `audit=${audit}`, `console=${withConsole}`, 'log-level=warn', 'rate-limit=1000000', 'rate-limit-burst=1000000', 'max-in-flight-per-agent=100000'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: stateDir } });
  const banner = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (/MCP\s+http:\/\/\S+\/mcp/.test(text)) resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`junction serve exited with ${code}: ${text}`)));
  });
  const baseUrl = /MCP\s+(http:\/\/[^/\s]+)\/mcp/.exec(banner)![1]!;
  const consoleToken = /console\s+http:\/\/\S+\/\?token=(\S+)/.exec(banner)?.[1];
  return { child, baseUrl, stateDir, ...(consoleToken ? { consoleToken } : {}) };
}

async function served(audit: boolean): Promise<Served> {
  return serve(audit, mkdtempSync(join(tmpdir(), 'junction-audit-bench-')));
}

async function stop(server: Served): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  rmSync(server.stateDir, { recursive: true, force: true });
}

/** One phase of load on `server` at `concurrency` connections: calls/s, p99 and Junction's CPU per call in the measured window. */
async function phase(server: Served, durationMs: number, concurrency = CONCURRENCY): Promise<Round & { p99: number }> {
  const pid = server.child.pid!;
  let cpuAtOpen = 0;
  let cpu = 0;
  const result = await runLoad(httpLane(new URL(server.baseUrl), '/api/tools/server-status', '{"detail":"Summary"}', (reply) => reply.status === 200), {
    concurrency,
    durationMs,
    warmupMs: 500,
    window: { open: () => (cpuAtOpen = cpuMs(pid)), close: () => (cpu = cpuMs(pid) - cpuAtOpen) },
  });
  if (result.errors > 0) throw new Error(`${result.errors} calls to ${server.baseUrl} failed`);
  return { callsPerSecond: result.callsPerSecond, cpuUsPerCall: (cpu * 1000) / result.calls, p99: result.p99 };
}

/** The synthetic trail's clock: call i finishes at END - (ROWS - i) * 10 ms, 100 calls a second. */
const END = Date.now();
const CALL_SPACING_MS = 10;

/** When the call of fraction `f` of the trail (0 oldest, 1 newest) finished. */
const finishedAt = (f: number) => END - Math.round((1 - f) * ROWS) * CALL_SPACING_MS;

/**
 * Call ids are Junction's own (time-ordered, random in their last 62 bits), so the search index holds
 * as many distinct words per call as in use. Calls are recorded when they finish, so start times are out of seq order: one call in 5,000 ran for ten
 * minutes (recorded 60,000 calls after it started), the rest for up to 96 ms.
 */
function syntheticCall(i: number, shiftMs = 0): AuditCallInput {
  const durationMs = i % 5000 === 0 ? 600_000 : i % 97;
  const finishedAt = END - (ROWS - i) * CALL_SPACING_MS + shiftMs;
  return {
    call: { callId: timeOrderedId(finishedAt), agent: `agent-${i % 50}`, transport: 'mcp-http', tool: `tool-${i % 40}`, target: i % 3 === 0 ? 'host' : 'bridge:editor', status: i % 20 === 0 ? 'error' : 'ok', startedAt: finishedAt - durationMs, durationMs, requestBytes: 120, responseBytes: 800, ...(i % 20 === 0 ? { errorCode: 'ToolFailed' } : {}) },
    json: {
      arguments: JSON.stringify({ path: `src/module-${i % 1000}.ts`, query: 'find references', limit: 50 }),
      result: JSON.stringify({ content: [{ type: 'text', text: `{"items":[],"hasMore":false,"n":${i}}` }], structuredContent: { items: [], hasMore: false, n: i } }),
    },
    policy: null,
    decidedBy: null,
  };
}

/** The options of a store on `path` for the synthetic trail: nothing expires, nothing is capped. */
const trailOptions = (path: string) => ({ path, rules: compileRedaction([]), logger: silentLogger, retentionDays: 36_500, maxBytes: 64 * 1024 ** 3, maxQueue: 100_000 });

/** Records the synthetic trail of ROWS calls at `path` through a store (redaction, batches, search index) and closes it. */
async function recordTrail(path: string): Promise<void> {
  const store = new AuditStore(trailOptions(path));
  store.open();
  const started = performance.now();
  for (let i = 0; i < ROWS; i++) {
    store.recordCall(syntheticCall(i));
    if (i % 10_000 === 9_999) store.flush();
  }
  store.flush();
  const loadSeconds = (performance.now() - started) / 1000;
  process.stdout.write(`\n${ROWS.toLocaleString()} calls recorded in ${fmt(loadSeconds, 1)} s (${fmt(ROWS / loadSeconds, 0)} records/s through redaction and batched writes, search index included)\n`);
  await store.close();
}

const HISTORY_QUERIES = [
  { name: 'status=error', q: { status: 'error' as const } },
  { name: 'tool=tool-7 status=ok', q: { tool: 'tool-7', status: 'ok' as const } },
  { name: 'agent=agent-3', q: { agent: 'agent-3' } },
  { name: 'text "tool-1" (2.5 %)', q: { text: 'tool-1' } },
  { name: 'text with no match', q: { text: 'no-such-word' } },
  { name: 'text "module-999" (0.1 %)', q: { text: 'module-999' } },
  { name: 'text "src/module-42.ts" + error', q: { text: 'src/module-42.ts', status: 'error' as const } },
  { name: 'text "agent-49" + error (never both)', q: { text: 'agent-49', status: 'error' as const } },
  // Time windows on started_at, which seq (the page order) does not follow: narrow and wide, old and recent, open-ended.
  { name: 'window 1 s, old (10 %)', q: { since: finishedAt(0.1), until: finishedAt(0.1) + 1000 } },
  { name: 'window 1 s, recent', q: { since: finishedAt(1) - 2000, until: finishedAt(1) - 1000 } },
  { name: 'window 1 s, old + status=error', q: { since: finishedAt(0.1), until: finishedAt(0.1) + 1000, status: 'error' as const } },
  { name: 'window 1 min, old + tool=tool-7', q: { since: finishedAt(0.2), until: finishedAt(0.2) + 60_000, tool: 'tool-7' } },
  { name: 'window 1 h, middle + agent=agent-3', q: { since: finishedAt(0.5), until: finishedAt(0.5) + 3_600_000, agent: 'agent-3' } },
  { name: 'window 10-90 % (wide)', q: { since: finishedAt(0.1), until: finishedAt(0.9) } },
  { name: 'window 10-90 % + tool + agent (never)', q: { since: finishedAt(0.1), until: finishedAt(0.9), tool: 'tool-7', agent: 'agent-3' } },
  { name: 'since 5 % (wide, open)', q: { since: finishedAt(0.05) } },
  { name: 'until 5 % (old, open)', q: { until: finishedAt(0.05) } },
  { name: 'until 5 % + status=error', q: { until: finishedAt(0.05), status: 'error' as const } },
  { name: 'text "find" + window 1 s, old', q: { text: 'find', since: finishedAt(0.1), until: finishedAt(0.1) + 1000 } },
  { name: 'text "module-42" + window 10-90 %', q: { text: 'module-42', since: finishedAt(0.1), until: finishedAt(0.9) } },
  // Prefixes of words in every call, and of more words than are expanded (1,111 numbers).
  { name: 'text "mod" (prefix, every call)', q: { text: 'mod' } },
  { name: 'text "refer" (prefix, every call)', q: { text: 'refer' } },
  { name: 'text "hasm" + tool=tool-7', q: { text: 'hasm', tool: 'tool-7' } },
  { name: 'text "Struct" + error + agent-40', q: { text: 'Struct', status: 'error' as const, agent: 'agent-40' } },
  { name: 'text "123" (prefix of 1,111 numbers)', q: { text: '123' } },
  // Filters that never meet: each filter's own index would walk all its rows.
  { name: 'tool=tool-7 agent=agent-3 (never)', q: { tool: 'tool-7', agent: 'agent-3' } },
  { name: 'tool=tool-7 status=error (never)', q: { tool: 'tool-7', status: 'error' as const } },
  { name: 'agent=agent-3 status=error (never)', q: { agent: 'agent-3', status: 'error' as const } },
  { name: 'tool-3 agent-3 status=ok', q: { tool: 'tool-3', agent: 'agent-3', status: 'ok' as const } },
];

/** Searches for call ids (found through their own index, not the search index): ids of calls recorded a tenth and nine tenths of the way in. */
async function idQueries(store: AuditStore): Promise<typeof HISTORY_QUERIES> {
  const idAt = async (share: number) => (await store.queryCalls({ limit: 1, before: Math.round(ROWS * share) })).items[0]!.call.callId;
  const [old, recent] = [await idAt(0.1), await idAt(0.9)];
  return [
    { name: 'a call id, old', q: { text: old } },
    { name: 'a call id, recent', q: { text: recent } },
    { name: "a call id's first 13 characters", q: { text: old.slice(0, 13) } },
    { name: 'a call id + text "find"', q: { text: `${recent} find` } },
    { name: 'an id no call has', q: { text: 'ffffffff-ffff' } },
  ];
}

/** p50 and p99 of one page of every shape in HISTORY_QUERIES and of the id searches, read through `store` at random cursor depths. */
async function pageLatencies(store: AuditStore, label: string): Promise<void> {
  // A store that cannot read answers every page at once with nothing: that would be no measure.
  if (store.status().state !== 'open' || (await store.queryCalls({ limit: 1 })).items.length === 0) throw new Error(`the trail cannot be read: ${JSON.stringify(store.status())}`);
  process.stdout.write(`history page ${label} (100 rows, newest first, random cursor depth), p50 / p99 ms:\n`);
  let cursor = 0;
  for (const { name, q } of [...HISTORY_QUERIES, ...(await idQueries(store))]) {
    const stats = await measureLatency(async () => {
      cursor = (cursor + 7919) % ROWS;
      await store.queryCalls({ ...q, limit: 100, ...(cursor % 2 === 0 ? {} : { before: cursor }) });
    }, 200);
    process.stdout.write(`  ${name.padEnd(40)} ${fmt(stats.p50, 2)} / ${fmt(stats.p99, 2)}   (target p99 < 50)\n`);
  }
}

/**
 * The history at ROWS calls: every page shape on the trail as recorded (its search index filled a chunk
 * at a time), the database size, then the same file upgraded from version 0 (the index and time map
 * backfilled in one transaction), and every shape again.
 */
async function historyAtScale(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'junction-audit-bench-rows-'));
  try {
    const options = trailOptions(join(dir, 'audit.db'));
    await recordTrail(options.path);
    const recorded = new AuditStore(options);
    recorded.open();
    await recorded.indexed();
    recorded.prune();
    const bytes = recorded.fileBytes();
    process.stdout.write(`database size: ${fmt(bytes / 1e6, 1)} MB, ${fmt((bytes / 1e6) * (1_000_000 / ROWS), 1)} MB per 1,000,000 calls\n`);
    await pageLatencies(recorded, 'as recorded');
    await recorded.close();
    // An existing trail without the search index: the upgrade a database recorded by an older Junction goes through.
    const legacy = new Database(options.path);
    const searchIndex = legacy
      .prepare("SELECT type, name FROM sqlite_master WHERE (name LIKE 'calls_fts%' AND (type = 'trigger' OR sql LIKE 'CREATE VIRTUAL TABLE%')) OR name LIKE 'calls_time_blocks%' ORDER BY type = 'table'")
      .all() as Array<{ type: string; name: string }>;
    for (const { type, name } of searchIndex) legacy.exec(`DROP ${type === 'trigger' ? 'TRIGGER' : 'TABLE'} ${name}`);
    // And what later versions added besides (schema.ts): the file is then as version 0 wrote it.
    legacy.exec('DROP TABLE calls_fts_progress; ALTER TABLE calls DROP COLUMN traceparent;');
    legacy.pragma('user_version = 0');
    legacy.close();
    const upgradeStarted = performance.now();
    const store = new AuditStore(options);
    store.open();
    // The upgrade runs in the writer thread; open() returns at once.
    await store.upgraded();
    process.stdout.write(`upgrade of a trail without the search index and time map (backfill of ${ROWS.toLocaleString()} calls): ${fmt((performance.now() - upgradeStarted) / 1000, 1)} s\n`);
    store.prune();
    await pageLatencies(store, 'after that upgrade');
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (PARTS.has('throughput')) await throughputRounds();
  if (PARTS.has('loop')) await eventLoopCost();
  if (PARTS.has('history')) await historyAtScale();
  if (PARTS.has('paging')) await pagingUnderLoad();
}

/** Connections of agent load while the console pages (issue 23's measure). */
const PAGING_CONCURRENCY = 16;

/**
 * The p99 of agent calls through /api at 16 connections into a Junction whose trail holds ROWS calls,
 * while the console pages history as fast as it can against the same run without paging. The console
 * socket is open in both (it receives the live call events either way); phases alternate in pairs, the
 * ratio is taken within each pair, median over pairs.
 */
async function pagingUnderLoad(): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-audit-bench-paging-'));
  let server: Served | undefined;
  let pager: Child | undefined;
  try {
    await recordTrail(auditDbPath(stateDir));
    server = await serve(true, stateDir, true);
    if (!server.consoleToken) throw new Error('junction serve printed no console token');
    pager = startTs('history-pager', 'bench/support/history-pager.ts', [server.baseUrl, server.consoleToken, String(ROWS)]);
    await pager.waitFor(/^pager ready$/);
    const paged = async (run: () => Promise<Round & { p99: number }>) => {
      process.kill(pager!.pid, 'SIGUSR1');
      const line = pager!.waitFor(/^paged (\d+) (\S+) (\S+) failed (\d+)$/, 120_000);
      const round = await run();
      process.kill(pager!.pid, 'SIGUSR2');
      const [, pages, p50, p99, failed] = await line;
      if (Number(failed) > 0) throw new Error(`${failed} history pages failed`);
      return { ...round, pages: Number(pages), pageP50: Number(p50), pageP99: Number(p99) };
    };
    process.stdout.write(`agent calls through POST /api at ${PAGING_CONCURRENCY} connections, ${ROWS.toLocaleString()} calls in the trail, the console paging history as fast as it can or not; ${ROUNDS} pairs of ${SECONDS} s phases\n`);
    await phase(server, 2000, PAGING_CONCURRENCY);
    await paged(() => phase(server!, 2000, PAGING_CONCURRENCY));
    const ratios: number[] = [];
    for (let pair = 0; pair < ROUNDS; pair++) {
      const plainFirst = pair % 2 === 0;
      const first = plainFirst ? await phase(server, SECONDS * 1000, PAGING_CONCURRENCY) : await paged(() => phase(server!, SECONDS * 1000, PAGING_CONCURRENCY));
      const second = plainFirst ? await paged(() => phase(server!, SECONDS * 1000, PAGING_CONCURRENCY)) : await phase(server, SECONDS * 1000, PAGING_CONCURRENCY);
      const [plain, paging] = (plainFirst ? [first, second] : [second, first]) as [Round & { p99: number }, Round & { p99: number; pages: number; pageP50: number; pageP99: number }];
      ratios.push(paging.p99 / plain.p99);
      process.stdout.write(
        `  pair ${pair + 1}: without paging p99 ${fmt(plain.p99, 2)} ms (${fmt(plain.callsPerSecond, 0)} calls/s), paging p99 ${fmt(paging.p99, 2)} ms (${fmt(paging.callsPerSecond, 0)} calls/s; ${fmt(paging.pages / SECONDS, 0)} pages/s, page p50/p99 ${fmt(paging.pageP50, 1)}/${fmt(paging.pageP99, 1)} ms), ratio ${fmt(ratios.at(-1)!, 3)}\n`,
      );
    }
    process.stdout.write(`ratio paging/without, agent p99, median over pairs: ${fmt(median(ratios), 3)} (range ${fmt(Math.min(...ratios), 3)} to ${fmt(Math.max(...ratios), 3)}; target <= 1.2)\n`);
  } finally {
    await pager?.stop();
    if (server) {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server!.child.once('exit', resolve));
    }
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Calls per measured run of the loop part: past several search-index chunks (8,192), so the chunked cost is what shows. */
const LOOP_CALLS = Number(process.env.AUDIT_BENCH_LOOP_CALLS ?? 100_000);
/** Calls a second the loop part records at: about what Junction serves through /api on this machine, within what its writer keeps up with. */
const LOOP_RATE = Number(process.env.AUDIT_BENCH_LOOP_RATE ?? 10_000);
const LOOP_TURN = 100;
const LOOP_ROUNDS = 3;
const DAY_MS = 86_400_000;

/** CPU time of each of this process's threads so far, in ns, by thread id (Linux: /proc/self/task/<tid>/schedstat). */
function threadCpuNs(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      out.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** CPU µs per call of the main thread and of all the others (the writer's, V8's helpers) from `before` to now. */
function cpuSince(before: Map<string, number>, calls: number): { main: number; others: number } {
  let main = 0;
  let others = 0;
  for (const [tid, ns] of threadCpuNs()) {
    const spent = ns - (before.get(tid) ?? 0);
    if (tid === String(process.pid)) main += spent;
    else others += spent;
  }
  return { main: main / 1000 / calls, others: others / 1000 / calls };
}

/** Records `count` calls from `from` at LOOP_RATE, in turns of LOOP_TURN between which the event loop runs, as agents' calls would arrive. */
async function recordCalls(record: (call: AuditCallInput) => void, from: number, count: number, shiftMs = 0): Promise<void> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    record(syntheticCall(from + i, shiftMs));
    if (i % LOOP_TURN !== LOOP_TURN - 1) continue;
    const wait = started + ((i + 1) / LOOP_RATE) * 1000 - performance.now();
    await new Promise((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
  }
}

/**
 * Issue 25's measure: the CPU the trail spends per recorded call on every thread, in the steady state: the
 * writer thread running, a trail of LOOP_CALLS older calls that retention deletes while as many new ones
 * are recorded, the new ones' search indexing included (a search then finds them all); less the same
 * loop recording nothing. Then the writer's parts, each measured on this thread over the same rows.
 */
async function eventLoopCost(): Promise<void> {
  process.stdout.write(`\nCPU per recorded call (${LOOP_CALLS.toLocaleString()} calls a round at ${LOOP_RATE.toLocaleString()}/s, as many older ones deleted meanwhile), µs:\n`);
  const dir = mkdtempSync(join(tmpdir(), 'junction-audit-bench-loop-'));
  try {
    const totals: number[] = [];
    for (let round = 0; round < LOOP_ROUNDS; round++) {
      const idleBefore = threadCpuNs();
      await recordCalls(() => undefined, 0, LOOP_CALLS);
      const idle = cpuSince(idleBefore, LOOP_CALLS);
      let clock = END;
      const path = join(dir, `loop-${round}.db`);
      const store = new AuditStore({ ...trailOptions(path), retentionDays: 1, now: () => clock });
      store.open();
      // The older calls, and the writer thread's start (a one-off: about 0.1 s from built code, 0.7 s through tsx), before the clock runs.
      await recordCalls((input) => store.recordCall(input), 0, LOOP_CALLS);
      await store.indexed();
      // A day later: the calls recorded now are a day younger, and the older ones past audit-retention-days=1.
      clock = END + DAY_MS + 3_600_000;
      const elu = performance.eventLoopUtilization();
      const before = threadCpuNs();
      await recordCalls((input) => store.recordCall(input), LOOP_CALLS, LOOP_CALLS, DAY_MS);
      await store.indexed();
      const loop = (performance.eventLoopUtilization(elu).active * 1000) / LOOP_CALLS;
      // Retention deletes as the writer writes, a step at a time; what it has not reached yet is deleted now, still on the clock.
      const count = new Database(path, { readonly: true });
      const older = count.prepare('SELECT COUNT(*) FROM calls WHERE started_at < ?').pluck();
      while ((older.get(END + 3_600_000) as number) > 0) store.prune();
      const spent = cpuSince(before, LOOP_CALLS);
      const left = count.prepare('SELECT COUNT(*) FROM calls').pluck().get() as number;
      count.close();
      await store.close();
      if (left !== LOOP_CALLS) throw new Error(`${left} calls left, not the ${LOOP_CALLS} recorded a day later`);
      const main = spent.main - idle.main;
      const others = spent.others - idle.others;
      totals.push(main + others);
      process.stdout.write(`  round ${round + 1}: main thread ${fmt(main, 1)} (event loop active ${fmt(loop - idle.main, 1)}), writer and other threads ${fmt(others, 1)}; all threads ${fmt(main + others, 1)} (target <= 15)\n`);
    }
    process.stdout.write(`  median over rounds, all threads, search indexing and retention included: ${fmt(median(totals), 1)} µs per recorded call (target <= 15)\n`);
    writerParts(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Retention's cost per call deleted: a trail holding the batches twice over, shaped by `shape` and indexed
 * for search when it still has its search indexes, loses its older half, 10,000 calls a step.
 */
function retention(dir: string, name: string, batches: readonly Buffer[], shape: (db: Database.Database) => void): number {
  const db = openAuditDatabase(join(dir, `retention-${name}.db`));
  shape(db);
  const insert = db.prepare(INSERT_CALLS);
  const write = db.transaction((batch: Buffer) => insert.run(batch));
  for (let copy = 0; copy < 2; copy++) batches.forEach(write);
  if (db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'calls_fts'").pluck().get() === 1) {
    for (const sql of searchIndexStatements('1')) db.exec(sql);
  }
  const step = db.prepare('DELETE FROM calls WHERE seq IN (SELECT seq FROM calls ORDER BY seq LIMIT 10000)');
  const us = perCall(LOOP_CALLS, () => {
    for (let deleted = 0; deleted < LOOP_CALLS; deleted += 10_000) step.run();
  });
  db.close();
  return us;
}

/** Thread CPU µs per call of `run` on this thread. */
function perCall(calls: number, run: () => void): number {
  const before = threadCpuNs().get(String(process.pid))!;
  run();
  return (threadCpuNs().get(String(process.pid))! - before) / 1000 / calls;
}

/**
 * What each part of recording costs, on this thread over LOOP_CALLS calls: the stored form, the floor
 * of a bare INSERT of the same rows, the calls table's own indexes, the time map, and the search indexes
 * as the writer fills them (a chunk at a time), the same once per batch, and their cost per call at the
 * default `automerge` of 4; retention, and the floor of a bare DELETE of the same rows. Then two sums:
 * the floor no trail of these calls in SQLite escapes, and the parts as the trail runs them.
 */
function writerParts(dir: string): void {
  const options = { rules: compileRedaction([]), previewBytes: 16 * 1024 };
  const inputs = Array.from({ length: LOOP_CALLS }, (_, i) => syntheticCall(i));
  let rows: string[] = [];
  // Warmed first, as it is in the steady state the loop measures: the first pass pays V8's compiling up.
  for (const input of inputs.slice(0, 10_000)) storedCall(input, options);
  const stored = perCall(LOOP_CALLS, () => {
    rows = inputs.map((input) => (storedCall(input, options) as { row: string }).row);
  });
  const shared = new SharedRows();
  const handOff = perCall(LOOP_CALLS, () => {
    for (let i = 0; i < rows.length; i += TIMED_BATCH) shared.write(rows.slice(i, i + TIMED_BATCH), false);
  });
  const batches: Buffer[] = [];
  for (let i = 0; i < rows.length; i += TIMED_BATCH) batches.push(Buffer.from(`[${rows.slice(i, i + TIMED_BATCH).join(',')}]`));
  const parts: Array<[string, number]> = [
    ['stored form: redaction check, previews, row text (recording thread)', stored],
    ['hand-off: a batch\'s rows into the memory shared with the writer (recording thread)', handOff],
  ];
  /** Writes every batch into a fresh trail shaped by `shape`, running `after(first seq, last seq)` after each batch's insert. */
  const variant = (name: string, shape: (db: Database.Database) => void, after: (db: Database.Database) => (first: number, last: number) => void) => {
    const db = openAuditDatabase(join(dir, `part-${parts.length}.db`));
    shape(db);
    const insert = db.prepare(INSERT_CALLS);
    const then = after(db);
    const write = db.transaction((batch: Buffer) => {
      const { changes, lastInsertRowid } = insert.run(batch);
      then(Number(lastInsertRowid) - changes + 1, Number(lastInsertRowid));
    });
    const us = perCall(LOOP_CALLS, () => batches.forEach(write));
    parts.push([name, us]);
    db.close();
    return us;
  };
  const none = () => () => undefined;
  const dropSearch = (db: Database.Database) => {
    for (const { name, type } of db.prepare("SELECT name, type FROM sqlite_master WHERE name LIKE 'calls_fts%' AND type IN ('trigger', 'table') AND (type = 'trigger' OR sql LIKE 'CREATE VIRTUAL TABLE%') ORDER BY type = 'table'").all() as Array<{ name: string; type: string }>) {
      db.exec(`DROP ${type === 'trigger' ? 'TRIGGER' : 'TABLE'} ${name}`);
    }
  };
  const bare = (db: Database.Database) => {
    dropSearch(db);
    db.exec('DROP INDEX calls_call_id; DROP INDEX calls_started_at;');
  };
  const bareInsert = variant('bare INSERT of the same rows, one transaction per batch (the floor)', bare, none);
  variant('+ the calls table\'s indexes (call id, start time)', dropSearch, none);
  const mapTimes = (db: Database.Database) => {
    const map = db.prepare(timeMapStatement('?'));
    return (first: number) => void map.run(first);
  };
  variant('+ the time map', dropSearch, mapTimes);
  const searchEvery = (chunk: number) => (db: Database.Database) => {
    const map = mapTimes(db);
    const index = searchIndexStatements('?').map((sql) => db.prepare(sql));
    let below = 1;
    return (first: number, last: number) => {
      map(first);
      if (last + 1 - below < chunk) return;
      for (const statement of index) statement.run(below);
      below = last + 1;
    };
  };
  const written = variant(`+ the search indexes, a chunk of ${INDEX_CHUNK.toLocaleString()} calls at a time (the writer)`, () => undefined, searchEvery(INDEX_CHUNK));
  variant('  the same, the search indexes filled with every batch', () => undefined, searchEvery(1));
  variant('  the same, with every batch and FTS5\'s default automerge (4)', (db) => {
    for (const table of ['calls_fts', 'calls_fts_error']) db.exec(`INSERT INTO ${table}(${table}, rank) VALUES ('automerge', 4)`);
  }, searchEvery(1));
  const bareDelete = retention(dir, 'bare', batches, bare);
  const pruned = retention(dir, 'trail', batches, () => undefined);
  parts.push(['bare DELETE: the oldest half of a bare trail of twice these calls, 10,000 a step (the floor)', bareDelete]);
  parts.push(['retention: the same in the trail as it is (b-trees, search index tombstones)', pruned]);
  process.stdout.write(`writer's parts, each on this thread over the same ${LOOP_CALLS.toLocaleString()} calls, µs per call:\n`);
  for (const [name, us] of parts) process.stdout.write(`  ${name.padEnd(92)} ${fmt(us, 2)}\n`);
  // The target is read against what no trail of these calls in SQLite escapes, measured in this run.
  const recording = stored + handOff;
  process.stdout.write(`  sums: the floor (stored form, hand-off, bare INSERT, bare DELETE) ${fmt(recording + bareInsert + bareDelete, 1)}; the parts as the trail runs them (the same with its indexes, time map, search indexes, retention) ${fmt(recording + written + pruned, 1)} (target <= 15 in all)\n`);
}

async function throughputRounds(): Promise<void> {
  process.stdout.write(`calls/s at ${CONCURRENCY} concurrent through POST /api/tools/server-status, ${ROUNDS} pairs of ${SECONDS} s phases, each Junction in its own process\n`);
  const off = await served(false);
  let started: Served | undefined;
  try {
    const on = (started = await served(true));
    await phase(off, 2000);
    await phase(on, 2000);
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    for (let pair = 0; pair < ROUNDS; pair++) {
      const [first, second] = pair % 2 === 0 ? [off, on] : [on, off];
      const a = await phase(first, SECONDS * 1000);
      const b = await phase(second, SECONDS * 1000);
      const [withoutTrail, withTrail] = first === off ? [a, b] : [b, a];
      ratios.push(withTrail.callsPerSecond / withoutTrail.callsPerSecond);
      cpuRatios.push(withoutTrail.cpuUsPerCall / withTrail.cpuUsPerCall);
      process.stdout.write(`  pair ${pair + 1}: audit off ${fmt(withoutTrail.callsPerSecond, 0)} calls/s (${fmt(withoutTrail.cpuUsPerCall, 0)} µs CPU/call), audit on ${fmt(withTrail.callsPerSecond, 0)} calls/s (${fmt(withTrail.cpuUsPerCall, 0)} µs CPU/call), ratio ${fmt(ratios.at(-1)!, 3)}\n`);
    }
    process.stdout.write(`ratio on/off, calls/s, median over pairs: ${fmt(median(ratios), 3)} (range ${fmt(Math.min(...ratios), 3)} to ${fmt(Math.max(...ratios), 3)}; target >= 0.95)\n`);
    process.stdout.write(`ratio off/on, Junction CPU per call, median over pairs: ${fmt(median(cpuRatios), 3)} (the calls/s ratio a CPU-bound Junction would reach)\n`);
  } finally {
    await stop(off);
    if (started) await stop(started);
  }
}

await main();
