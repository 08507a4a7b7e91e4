/**
 * The audit trail's cost, in ratios measured in this run:
 *  1. calls/s at 64 concurrent callers through POST /api with the trail on vs off. Each Junction runs in
 *     its own process (`junction serve`); this process is the load generator. Rounds alternate off/on.
 *  2. p50/p99 of one filtered history page at 1,000,000 recorded calls, and the database size per
 *     1,000,000 calls.
 * AUDIT_BENCH_SECONDS (default 10) sets each throughput round; AUDIT_BENCH_ROWS (default 1,000,000) the table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditStore, compileRedaction, type AuditCallInput } from '../src-main/audit/index.js';
import { cliInvocation } from '../src-main/app/paths.js';
import { silentLogger } from '../src-main/shared/log.js';
import { fmt, measureLatency, measureThroughput } from './support/stats.js';

const SECONDS = Number(process.env.AUDIT_BENCH_SECONDS ?? 10);
const ROWS = Number(process.env.AUDIT_BENCH_ROWS ?? 1_000_000);
const CONCURRENCY = 64;

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

async function throughput(audit: boolean): Promise<number> {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-audit-bench-'));
  const { child, baseUrl } = await serve(audit, stateDir);
  try {
    const call = async () => {
      const res = await fetch(`${baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"detail":"Summary"}' });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    };
    await measureThroughput(call, CONCURRENCY, 2000);
    return await measureThroughput(call, CONCURRENCY, SECONDS * 1000);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

function syntheticCall(i: number): AuditCallInput {
  return {
    call: { callId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, agent: `agent-${i % 50}`, transport: 'mcp-http', tool: `tool-${i % 40}`, target: i % 3 === 0 ? 'host' : 'bridge:editor', status: i % 20 === 0 ? 'error' : 'ok', startedAt: Date.now() - (ROWS - i) * 10, durationMs: i % 97, requestBytes: 120, responseBytes: 800, ...(i % 20 === 0 ? { errorCode: 'ToolFailed' } : {}) },
    arguments: { path: `src/module-${i % 1000}.ts`, query: 'find references', limit: 50 },
    result: { content: [{ type: 'text', text: `{"items":[],"hasMore":false,"n":${i}}` }], structuredContent: { items: [], hasMore: false, n: i } },
    policy: null,
    decidedBy: null,
  };
}

async function historyAtScale(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'junction-audit-bench-rows-'));
  try {
    const store = new AuditStore({ path: join(dir, 'audit.db'), rules: compileRedaction([]), logger: silentLogger, retentionDays: 36_500, maxBytes: 64 * 1024 ** 3, maxQueue: 100_000 });
    store.open();
    const started = performance.now();
    for (let i = 0; i < ROWS; i++) {
      store.recordCall(syntheticCall(i));
      if (i % 10_000 === 9_999) store.flush();
    }
    store.flush();
    const loadSeconds = (performance.now() - started) / 1000;
    store.prune();
    const bytes = store.fileBytes();
    let cursor = 0;
    const queries = [
      { name: 'status=error', q: { status: 'error' as const } },
      { name: 'tool=tool-7 status=ok', q: { tool: 'tool-7', status: 'ok' as const } },
      { name: 'agent=agent-3', q: { agent: 'agent-3' } },
      { name: 'text "tool-1"', q: { text: 'tool-1' } },
      { name: 'text (rare) "agent-49" + error', q: { text: 'agent-49', status: 'error' as const } },
    ];
    process.stdout.write(`\n${ROWS.toLocaleString()} calls recorded in ${fmt(loadSeconds, 1)} s (${fmt(ROWS / loadSeconds, 0)} records/s through redaction and batched writes)\n`);
    process.stdout.write(`database size: ${fmt(bytes / 1e6, 1)} MB, ${fmt((bytes / 1e6) * (1_000_000 / ROWS), 1)} MB per 1,000,000 calls\n`);
    process.stdout.write('history page (100 rows, newest first, random cursor depth) p50 / p99 ms:\n');
    for (const { name, q } of queries) {
      const stats = await measureLatency(async () => {
        cursor = (cursor + 7919) % ROWS;
        store.queryCalls({ ...q, limit: 100, ...(cursor % 2 === 0 ? {} : { before: cursor }) });
      }, 200);
      process.stdout.write(`  ${name.padEnd(34)} ${fmt(stats.p50, 2)} / ${fmt(stats.p99, 2)}   (target p99 < 50)\n`);
    }
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  process.stdout.write(`calls/s at ${CONCURRENCY} concurrent through POST /api/tools/server-status, ${SECONDS} s rounds, Junction in its own process\n`);
  const off: number[] = [];
  const on: number[] = [];
  for (let round = 0; round < 2; round++) {
    off.push(await throughput(false));
    on.push(await throughput(true));
    process.stdout.write(`  round ${round + 1}: audit off ${fmt(off[round]!, 0)} calls/s, audit on ${fmt(on[round]!, 0)} calls/s\n`);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  process.stdout.write(`ratio on/off: ${fmt(mean(on) / mean(off), 3)} (target >= 0.95)\n`);
  await historyAtScale();
}

await main();
