/**
 * Startup with an older audit trail: `junction serve` (its own process) on a state directory whose audit
 * database is a version 1 file of AUDIT_UPGRADE_ROWS calls (default 1,000,000), timed from the spawn to
 * its first answered call (POST /api/tools/server-status), and to the end of the upgrade as its log says.
 * AUDIT_UPGRADE_FILE names a version 1 file to copy instead of writing one (writing 1,000,000 calls takes
 * about half a minute); AUDIT_UPGRADE_RUNS (default 1) how many starts are timed. The calls written are
 * from the last hours, so the default retention (30 days) deletes none of them at the start.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { auditDbPath } from '../src-main/audit/index.js';
import { cliInvocation } from '../src-main/app/paths.js';
import { writeV1Trail } from '../test/support/audit-v1.js';
import { fmt } from './support/stats.js';

const ROWS = Number(process.env.AUDIT_UPGRADE_ROWS ?? 1_000_000);
const RUNS = Number(process.env.AUDIT_UPGRADE_RUNS ?? 1);
/** Longest one start is watched: the upgrade of 1,000,000 calls took 15 to 45 s on the main thread. */
const WATCH_MS = 120_000;

interface Start {
  listeningMs: number;
  firstCallMs: number;
  /** From the spawn to the log line that says the upgrade ended; undefined when none came in time. */
  upgradedMs: number | undefined;
  /** The upgrade's own duration as the log line reports it. */
  upgradeReportMs: number | undefined;
}

async function firstCall(baseUrl: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"detail":"Summary"}' }).catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function start(v1File: string): Promise<Start> {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-upgrade-bench-'));
  mkdirSync(join(stateDir, 'audit'), { recursive: true });
  copyFileSync(v1File, auditDbPath(stateDir));
  const args = [...cliInvocation(), 'serve', 'port=0', `state-dir=${stateDir}`, 'console=false', 'log-level=info'];
  const spawned = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: stateDir } });
  try {
    let text = '';
    let listeningMs = 0;
    let upgradedMs: number | undefined;
    let upgradeReportMs: number | undefined;
    const upgraded = new Promise<void>((resolve) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const report = /upgraded .* in (\d+) ms/.exec(text);
        if (report && upgradedMs === undefined) {
          upgradedMs = performance.now() - spawned;
          upgradeReportMs = Number(report[1]);
          resolve();
        }
      });
    });
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', () => {
        const match = /MCP\s+(http:\/\/[^/\s]+)\/mcp/.exec(text);
        if (match && !listeningMs) {
          listeningMs = performance.now() - spawned;
          resolve(match[1]!);
        }
      });
      child.once('exit', (code) => reject(new Error(`junction serve exited with ${code}: ${text}`)));
    });
    await firstCall(baseUrl);
    const firstCallMs = performance.now() - spawned;
    await Promise.race([upgraded, new Promise((resolve) => setTimeout(resolve, WATCH_MS - firstCallMs).unref())]);
    return { listeningMs, firstCallMs, upgradedMs, upgradeReportMs };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  let scratch: string | undefined;
  let v1File = process.env.AUDIT_UPGRADE_FILE;
  if (!v1File) {
    scratch = mkdtempSync(join(tmpdir(), 'junction-upgrade-bench-v1-'));
    v1File = join(scratch, 'v1.db');
    const written = performance.now();
    writeV1Trail(v1File, ROWS, Date.now() - ROWS);
    process.stdout.write(`version 1 trail of ${ROWS.toLocaleString()} calls written in ${fmt((performance.now() - written) / 1000, 1)} s\n`);
  }
  try {
    process.stdout.write(`junction serve on a version 1 trail of ${ROWS.toLocaleString()} calls (load average ${loadavg().map((l) => fmt(l, 2)).join(' ')}), ms from spawn:\n`);
    for (let run = 0; run < RUNS; run++) {
      const s = await start(v1File);
      const upgrade = s.upgradedMs === undefined ? 'upgrade not ended in time' : `upgrade ended ${fmt(s.upgradedMs, 0)} (its log: ${s.upgradeReportMs} ms)`;
      process.stdout.write(`  listening ${fmt(s.listeningMs, 0)}, first call answered ${fmt(s.firstCallMs, 0)}, ${upgrade}\n`);
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
