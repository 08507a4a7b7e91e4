/**
 * The memory-exhaustion attack: POST /api/tools/document-read again and again, each time with a
 * different multi-megabyte `path`, against Junction running as a child process with a capped heap.
 * Measures the child's RSS (Linux /proc) at idle, at its peak, and after the attack has settled.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_SOURCE_FOR_TESTS } from '../../support/cli.js';

export interface MemoryAttackOptions {
  workspace: string;
  calls: number;
  argumentBytes: number;
  heapCapMb: number;
}

export interface MemoryAttackResult {
  /** The child's exit code or signal when it died during the attack; undefined when it survived. */
  exitedWith: string | undefined;
  answered: number;
  /** Distinct HTTP statuses the attack calls got. */
  statuses: number[];
  rssIdleMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
  /** How long after the attack's last call the after reading was taken. */
  settledAfterMs: number;
  /**
   * How far above idle RSS may settle: about a quarter of the bytes the default attack sends, so a leak
   * of the kind this attack once caused (gigabytes) cannot pass, while the allocator's keeping of freed
   * pages can: alone the attack settled 5 to 20 MB above idle, beside the rest of a full run once 44 MB.
   */
  idleBandMb: number;
  stderrTail: string;
}

const IDLE_BAND_MB = 64;

const mb = (kib: number) => Math.round(kib / 1024);

/** Resident set size of another process, from /proc (the attack suite runs on Linux). */
function rssMbOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return mb(Number(match[1]));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Junction gives a burst's garbage back once calls have been quiet for one to two of its idle-heap
 * periods (10 s each, app/junction.ts); V8 may collect sooner on its own, or, on a busy machine, not
 * before then. So RSS is read each half second until it is in the band or those two periods and a
 * margin have passed, and the last reading is the result.
 */
const SETTLE_DEADLINE_MS = 25_000;

async function settledRss(pid: number, bandTopMb: number, died: () => boolean, peakMb: number): Promise<{ rssMb: number; afterMs: number }> {
  const start = Date.now();
  for (;;) {
    await sleep(500);
    const afterMs = Date.now() - start;
    if (died()) return { rssMb: peakMb, afterMs };
    const rssMb = rssMbOf(pid);
    if (rssMb <= bandTopMb || afterMs >= SETTLE_DEADLINE_MS) return { rssMb, afterMs };
  }
}

export async function runMemoryAttack(options: MemoryAttackOptions): Promise<MemoryAttackResult> {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-memory-state-'));
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${options.heapCapMb}`, ...CLI_SOURCE_FOR_TESTS, 'serve', 'port=0', `state-dir=${stateDir}`, `workspace=${options.workspace}`, 'demo=false', 'console=false', 'log-level=info'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  let exitedWith: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exitedWith = signal ?? `exit code ${code}`;
      resolve();
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
      const match = /API\s+http:\/\/127\.0\.0\.1:(\d+)\/api\/tools/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    void exited.then(() => reject(new Error(`Junction exited before listening (${exitedWith}): ${stderr}`)));
  });
  const pid = child.pid as number;
  /** The HTTP status, or undefined when the connection failed (the server died). */
  const call = async (path: string): Promise<number | undefined> => {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/tools/document-read`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path }),
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      return undefined;
    }
  };

  try {
    // Warm up every code path the attack takes, so idle RSS already includes them.
    for (let n = 0; n < 20; n++) await call(`warm-${n}.ts`);
    await sleep(500);
    const rssIdleMb = rssMbOf(pid);
    let rssPeakMb = rssIdleMb;
    let answered = 0;
    const statuses = new Set<number>();
    const filler = 'x'.repeat(options.argumentBytes);
    for (let n = 0; n < options.calls && exitedWith === undefined; n++) {
      const status = await call(`${n}-${filler}`);
      if (status === undefined) break;
      statuses.add(status);
      answered++;
      rssPeakMb = Math.max(rssPeakMb, rssMbOf(pid));
    }
    // Small calls afterwards let the collector run; RSS must come back near idle.
    for (let n = 0; n < 200 && exitedWith === undefined; n++) if ((await call(`settle-${n}.ts`)) === undefined) break;
    const idleBandMb = IDLE_BAND_MB;
    const settled = await settledRss(pid, rssIdleMb + idleBandMb, () => exitedWith !== undefined, rssPeakMb);
    return {
      exitedWith,
      answered,
      statuses: [...statuses].sort(),
      rssIdleMb,
      rssPeakMb,
      rssAfterMb: settled.rssMb,
      settledAfterMs: settled.afterMs,
      idleBandMb,
      stderrTail: stderr.slice(-1000),
    };
  } finally {
    if (exitedWith === undefined) child.kill('SIGTERM');
    await exited;
    rmSync(stateDir, { recursive: true, force: true });
  }
}
