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
 *  3. the event loop's cost per recorded call (main-thread active time from eventLoopUtilization, less the
 *     same loop recording nothing): the worker-thread store vs the same writer called on the main thread.
 * AUDIT_BENCH_PARTS (default `throughput,loop,history`) which parts run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AuditStore, compileRedaction, type AuditCallInput } from '../src-main/audit/index.js';
import { AuditWriter, type AuditRecord } from '../src-main/audit/writer.js';
import { cliInvocation } from '../src-main/app/paths.js';
import { silentLogger } from '../src-main/shared/log.js';
import { httpLane, runLoad } from './support/load.js';
import { fmt, measureLatency, median } from './support/stats.js';

const SECONDS = Number(process.env.AUDIT_BENCH_SECONDS ?? 5);
const ROWS = Number(process.env.AUDIT_BENCH_ROWS ?? 1_000_000);
const CONCURRENCY = 64;
const ROUNDS = Number(process.env.AUDIT_BENCH_ROUNDS ?? 6);
/** Linux reports process CPU time in clock ticks of 10 ms. */
const TICK_MS = 10;
const PARTS = new Set((process.env.AUDIT_BENCH_PARTS ?? 'throughput,loop,history').split(','));

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

async function serve(audit: boolean, stateDir: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const args = [...cliInvocation(), 'serve', 'port=0', `state-dir=${stateDir}`, `audit=${audit}`, 'console=false', 'log-level=warn', 'rate-limit=1000000', 'rate-limit-burst=1000000', 'max-in-flight-per-agent=100000'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: stateDir } });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /MCP\s+(http:\/\/[^/\s]+)\/mcp/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`junction serve exited with ${code}: ${text}`)));
  });
  return { child, baseUrl };
}

interface Served {
  child: ChildProcess;
  baseUrl: string;
  stateDir: string;
}

async function served(audit: boolean): Promise<Served> {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-audit-bench-'));
  return { ...(await serve(audit, stateDir)), stateDir };
}

async function stop(server: Served): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  rmSync(server.stateDir, { recursive: true, force: true });
}

/** One phase of load on `server`: calls/s and Junction's CPU per call in the measured window. */
async function phase(server: Served, durationMs: number): Promise<Round> {
  const pid = server.child.pid!;
  let cpuAtOpen = 0;
  let cpu = 0;
  const result = await runLoad(httpLane(new URL(server.baseUrl), '/api/tools/server-status', '{"detail":"Summary"}', (reply) => reply.status === 200), {
    concurrency: CONCURRENCY,
    durationMs,
    warmupMs: 500,
    window: { open: () => (cpuAtOpen = cpuMs(pid)), close: () => (cpu = cpuMs(pid) - cpuAtOpen) },
  });
  if (result.errors > 0) throw new Error(`${result.errors} calls to ${server.baseUrl} failed`);
  return { callsPerSecond: result.callsPerSecond, cpuUsPerCall: (cpu * 1000) / result.calls };
}

/** The synthetic trail's clock: call i finishes at END - (ROWS - i) * 10 ms, 100 calls a second. */
const END = Date.now();
const CALL_SPACING_MS = 10;

/** When the call of fraction `f` of the trail (0 oldest, 1 newest) finished. */
const finishedAt = (f: number) => END - Math.round((1 - f) * ROWS) * CALL_SPACING_MS;

/**
 * Calls are recorded when they finish, so start times are out of seq order: one call in 5,000 ran for ten
 * minutes (recorded 60,000 calls after it started), the rest for up to 96 ms.
 */
function syntheticCall(i: number): AuditCallInput {
  const durationMs = i % 5000 === 0 ? 600_000 : i % 97;
  return {
    call: { callId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, agent: `agent-${i % 50}`, transport: 'mcp-http', tool: `tool-${i % 40}`, target: i % 3 === 0 ? 'host' : 'bridge:editor', status: i % 20 === 0 ? 'error' : 'ok', startedAt: END - (ROWS - i) * CALL_SPACING_MS - durationMs, durationMs, requestBytes: 120, responseBytes: 800, ...(i % 20 === 0 ? { errorCode: 'ToolFailed' } : {}) },
    json: {
      arguments: JSON.stringify({ path: `src/module-${i % 1000}.ts`, query: 'find references', limit: 50 }),
      result: JSON.stringify({ content: [{ type: 'text', text: `{"items":[],"hasMore":false,"n":${i}}` }], structuredContent: { items: [], hasMore: false, n: i } }),
    },
    policy: null,
    decidedBy: null,
  };
}

async function historyAtScale(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'junction-audit-bench-rows-'));
  try {
    const options = { path: join(dir, 'audit.db'), rules: compileRedaction([]), logger: silentLogger, retentionDays: 36_500, maxBytes: 64 * 1024 ** 3, maxQueue: 100_000 };
    let store = new AuditStore(options);
    store.open();
    const started = performance.now();
    for (let i = 0; i < ROWS; i++) {
      store.recordCall(syntheticCall(i));
      if (i % 10_000 === 9_999) store.flush();
    }
    store.flush();
    const loadSeconds = (performance.now() - started) / 1000;
    process.stdout.write(`\n${ROWS.toLocaleString()} calls recorded in ${fmt(loadSeconds, 1)} s (${fmt(ROWS / loadSeconds, 0)} records/s through redaction and batched writes, search index included)\n`);
    store.close();
    // An existing trail without the search index: the upgrade a database recorded by an older Junction goes through.
    const legacy = new Database(join(dir, 'audit.db'));
    const searchIndex = legacy
      .prepare("SELECT type, name FROM sqlite_master WHERE (name LIKE 'calls_fts%' AND (type = 'trigger' OR sql LIKE 'CREATE VIRTUAL TABLE%')) OR name LIKE 'calls_time_blocks%' ORDER BY type = 'table'")
      .all() as Array<{ type: string; name: string }>;
    for (const { type, name } of searchIndex) legacy.exec(`DROP ${type === 'trigger' ? 'TRIGGER' : 'TABLE'} ${name}`);
    legacy.pragma('user_version = 0');
    legacy.close();
    const upgradeStarted = performance.now();
    store = new AuditStore(options);
    store.open();
    // The upgrade runs in the writer thread; open() returns at once.
    await store.upgraded();
    process.stdout.write(`upgrade of a trail without the search index and time map (backfill of ${ROWS.toLocaleString()} calls): ${fmt((performance.now() - upgradeStarted) / 1000, 1)} s\n`);
    store.prune();
    const bytes = store.fileBytes();
    let cursor = 0;
    const queries = [
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
    process.stdout.write(`database size: ${fmt(bytes / 1e6, 1)} MB, ${fmt((bytes / 1e6) * (1_000_000 / ROWS), 1)} MB per 1,000,000 calls\n`);
    process.stdout.write('history page (100 rows, newest first, random cursor depth) p50 / p99 ms:\n');
    for (const { name, q } of queries) {
      const stats = await measureLatency(async () => {
        cursor = (cursor + 7919) % ROWS;
        store.queryCalls({ ...q, limit: 100, ...(cursor % 2 === 0 ? {} : { before: cursor }) });
      }, 200);
      process.stdout.write(`  ${name.padEnd(40)} ${fmt(stats.p50, 2)} / ${fmt(stats.p99, 2)}   (target p99 < 50)\n`);
    }
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (PARTS.has('throughput')) await throughputRounds();
  if (PARTS.has('loop')) await eventLoopCost();
  if (PARTS.has('history')) await historyAtScale();
}

const LOOP_CALLS = 20_000;
const LOOP_BATCH = 500;

/**
 * While `record` takes LOOP_CALLS calls in turns of LOOP_BATCH and `settled` reports them written: the
 * main thread's active ms, and the CPU ms of the whole process (every thread: the writer's too).
 */
async function activeMs(record: (call: AuditCallInput) => void, settled: () => boolean): Promise<{ loop: number; cpu: number }> {
  const before = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < LOOP_CALLS; i++) {
    record(syntheticCall(i));
    if (i % LOOP_BATCH === LOOP_BATCH - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  while (!settled()) await new Promise((resolve) => setTimeout(resolve, 5));
  const cpu = process.cpuUsage(cpuBefore);
  return { loop: performance.eventLoopUtilization(before).active, cpu: (cpu.user + cpu.system) / 1000 };
}

async function eventLoopCost(): Promise<void> {
  process.stdout.write(`\nevent-loop time per recorded call (${LOOP_CALLS.toLocaleString()} calls, main thread only), µs:\n`);
  const dir = mkdtempSync(join(tmpdir(), 'junction-audit-bench-loop-'));
  try {
    const rules = compileRedaction([]);
    for (let round = 0; round < 2; round++) {
      const idle = await activeMs(() => undefined, () => true);
      const inline = new AuditWriter({ path: join(dir, `inline-${round}.db`), rules, retentionDays: 36_500, maxBytes: 64 * 1024 ** 3, previewBytes: 16 * 1024 });
      let pending: AuditRecord[] = [];
      const onThread = await activeMs(
        (input) => {
          pending.push({ type: 'call', input });
          if (pending.length === LOOP_BATCH) {
            inline.write(pending, Date.now());
            pending = [];
          }
        },
        () => pending.length === 0,
      );
      inline.close();
      const store = new AuditStore({ path: join(dir, `worker-${round}.db`), rules, logger: silentLogger, retentionDays: 36_500, maxBytes: 64 * 1024 ** 3, maxQueue: 100_000 });
      store.open();
      const inWorker = await activeMs((input) => store.recordCall(input), () => store.status().queued === 0);
      store.close();
      const perCall = (ms: number, base: number) => fmt(((ms - base) * 1000) / LOOP_CALLS, 1);
      process.stdout.write(`  round ${round + 1}: writer on the event loop ${perCall(onThread.loop, idle.loop)}, worker-thread store ${perCall(inWorker.loop, idle.loop)}\n`);
      // Issue 25's measure: everything the trail costs per call, search indexes and the size cap's check included.
      process.stdout.write(`    CPU per recorded call, all threads (worker-thread store, FTS and retention on): ${perCall(inWorker.cpu, idle.cpu)} µs (target <= 15)\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
