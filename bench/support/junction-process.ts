/**
 * Junction as the benchmarks see it: `junction serve` in its own process (the TypeScript sources
 * through tsx, or the built dist), reached only over HTTP and the hub, so the benchmark measures any
 * version of the code behind those endpoints. Settings come only from the command line: a private
 * state directory and an empty config home keep the user's files out.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpConnection } from './load.js';
import { delay, startCommand, type Child } from './processes.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const DIST_CLI = join(ROOT, 'dist/src-main/app/cli.js');
const SOURCE_CLI = join(ROOT, 'src-main/app/cli.ts');

export type Runner = 'tsx' | 'dist';

export interface RunningJunction {
  readonly child: Child;
  readonly base: URL;
  readonly hubEndpoint: string;
  stop(): Promise<void>;
}

/**
 * `tsx` when asked for. Otherwise the built dist/, brought up to date first with the same incremental
 * `tsc -b` that `npm start` runs (a no-op when nothing changed): tsx's loader thread and transpile
 * caches add about 100 MB of RSS, which would swamp the RSS targets.
 */
export function chooseRunner(requested: string | undefined): Runner {
  if (requested === 'tsx') return 'tsx';
  const started = performance.now();
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(DIST_CLI)) throw new Error('building dist/ (tsc -b tsconfig.build.json) failed; BENCH_JUNCTION=tsx runs the sources instead.');
  process.stderr.write(`dist/ up to date (tsc -b, ${Math.round(performance.now() - started)} ms)\n`);
  return 'dist';
}

/**
 * Extra Node flags for Junction's process from BENCH_JUNCTION_NODE (space-separated), e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it under the benchmark's load.
 */
const NODE_FLAGS = (process.env.BENCH_JUNCTION_NODE ?? '').split(' ').filter(Boolean);

export async function startJunctionProcess(runner: Runner, settings: readonly string[]): Promise<RunningJunction> {
  const home = mkdtempSync(join(tmpdir(), 'junction-bench-'));
  // Admission stays on; its per-agent rate limit is raised so that it admits rather than throttles the
  // load (every /api lane is one agent, the caller's address).
  const args = ['serve', 'host=127.0.0.1', 'port=0', `state-dir=${join(home, 'state')}`, 'log-level=warn', 'rate-limit=1000000', 'rate-limit-burst=1000000', ...settings];
  const env = { XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state-home') };
  const child = runner === 'dist' ? startCommand('junction', process.execPath, [...NODE_FLAGS, DIST_CLI, ...args], env) : startCommand('junction', process.execPath, [...NODE_FLAGS, '--import', 'tsx', SOURCE_CLI, ...args], env);
  try {
    const [, mcpUrl] = await child.waitFor(/MCP\s+(http:\/\/\S+)\/mcp/);
    const base = new URL(mcpUrl!);
    await untilReady(base);
    return {
      child,
      base,
      hubEndpoint: `${base.origin}/hub/mcp-server`,
      async stop() {
        await child.stop();
        rmSync(home, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await child.stop();
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
}

async function untilReady(base: URL): Promise<void> {
  const connection = new HttpConnection(base);
  try {
    for (let i = 0; i < 600; i++) {
      const reply = await connection.get('/readyz').catch(() => undefined);
      if (reply?.status === 200) return;
      await delay(100);
    }
    throw new Error('Junction did not become ready within 60 s');
  } finally {
    connection.close();
  }
}

/** Waits until `GET /api/tools` lists `tool` (the plugin's catalogue has arrived). */
export async function untilToolListed(base: URL, tool: string): Promise<void> {
  const connection = new HttpConnection(base);
  try {
    for (let i = 0; i < 300; i++) {
      const reply = await connection.get('/api/tools').catch(() => undefined);
      if (reply?.status === 200 && reply.body.includes(`"${tool}"`)) return;
      await delay(100);
    }
    throw new Error(`Junction never listed the tool '${tool}'`);
  } finally {
    connection.close();
  }
}

/** Warnings Node printed on Junction's stderr, by name. */
export function countWarnings(junction: RunningJunction, name: string): number {
  return junction.child.stderr().split(name).length - 1;
}
