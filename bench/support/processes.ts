/**
 * Child processes for the benchmarks: start a TypeScript entry (through tsx) or any command, wait
 * for the line it prints when ready, read its CPU time and RSS from /proc, and stop it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly pid: number;
  /** Everything it wrote to stderr so far (for warnings and failure reports). */
  stderr(): string;
  /** Resolves with the first match of `pattern` on stdout or stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

/** Runs a TypeScript file under tsx in its own Node process. */
export function startTs(name: string, file: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Child {
  return startCommand(name, process.execPath, ['--import', 'tsx', file, ...args], env);
}

export function startCommand(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Child {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: (m: RegExpMatchArray) => void }> = [];
  const offer = (line: string) => {
    for (const waiter of [...waiters]) {
      const match = line.match(waiter.pattern);
      if (!match) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(match);
    }
  };
  createInterface({ input: child.stdout! }).on('line', offer);
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr += `${line}\n`;
    offer(line);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    process: child,
    pid: child.pid,
    stderr: () => stderr,
    waitFor(pattern, timeoutMs = READY_TIMEOUT_MS) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no line matching ${pattern} within ${timeoutMs} ms\n${stderr}`)), timeoutMs);
        const done = (match: RegExpMatchArray) => {
          clearTimeout(timer);
          resolve(match);
        };
        waiters.push({ pattern, resolve: done });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`${name} exited with code ${code} before printing ${pattern}\n${stderr}`));
        });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on Linux unless told otherwise). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
const PAGE_BYTES = (() => {
  try {
    return Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096;
  } catch {
    return 4096;
  }
})();

export interface ProcStats {
  /** User + system CPU time so far, ms. */
  cpuMs: number;
  rssBytes: number;
}

/** CPU time and RSS of a process from /proc; undefined where /proc is not available. */
export function procStats(pid: number): ProcStats | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which sits in parentheses and may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    const resident = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return { cpuMs: ((utime + stime) * 1000) / CLOCK_TICKS, rssBytes: resident * PAGE_BYTES };
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `intervalMs` and keeps the peak, until stopped. */
export function watchPeakRss(pid: number, intervalMs = 100): { stop(): number } {
  let peak = procStats(pid)?.rssBytes ?? 0;
  const timer = setInterval(() => {
    const rss = procStats(pid)?.rssBytes;
    if (rss !== undefined && rss > peak) peak = rss;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, procStats(pid)?.rssBytes ?? 0);
    },
  };
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
