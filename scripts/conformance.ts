/**
 * `npm run conformance`: the official MCP conformance suite's server scenarios against Junction's /mcp
 * with the conformance fixture plugin connected through the bridge.
 *
 * The suite needs Node >= 22 while the project runs on Node 20, so the suite and a Node 22 binary (the
 * npm registry's `node-<platform>-<arch>` package, which ships the binary in its tarball) are installed
 * into a cache folder with the ordinary npm client; the project's own Node and package.json are untouched.
 *
 *   npm run conformance [-- --scenario NAME] [-- --suite active|all]   (default: all)
 *   CONFORMANCE_CACHE=DIR overrides the cache folder (default node_modules/.cache/junction-conformance).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const SUITE_PACKAGE = '@modelcontextprotocol/conformance';
const SUITE_VERSION = '0.1.16';
const NODE_MAJOR = 22;
const READY_TIMEOUT_MS = 60_000;
/** Every tool the fixture publishes must be in the catalogue before the suite starts. */
const FIXTURE_TOOLS = ['test_simple_text', 'test_sampling', 'test_elicitation', 'json_schema_2020_12_tool'];

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { values } = parseArgs({ options: { scenario: { type: 'string' }, suite: { type: 'string', default: 'all' } }, strict: true });
const options = z.object({ scenario: z.string().min(1).optional(), suite: z.enum(['active', 'all', 'pending']) }).parse(values);

function nodePackage(): string {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform as string];
  if (!platform) throw new Error(`No Node ${NODE_MAJOR} binary package for platform ${process.platform}.`);
  return `node-${platform}-${process.arch}`;
}

/** Installs the suite and a Node 22 binary into the cache folder once; returns their paths. */
function ensureToolchain(): { node: string; suite: string } {
  const cache = resolve(process.env['CONFORMANCE_CACHE'] ?? join(root, 'node_modules', '.cache', 'junction-conformance'));
  const nodePkg = nodePackage();
  const node = join(cache, 'node_modules', nodePkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const suite = join(cache, 'node_modules', SUITE_PACKAGE, 'dist', 'index.js');
  const installed = existsSync(suite) && existsSync(node) && JSON.parse(readFileSync(join(cache, 'node_modules', SUITE_PACKAGE, 'package.json'), 'utf8')).version === SUITE_VERSION;
  if (!installed) {
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, 'package.json'), JSON.stringify({ name: 'junction-conformance-cache', private: true }));
    process.stderr.write(`conformance: installing ${SUITE_PACKAGE}@${SUITE_VERSION} and ${nodePkg}@${NODE_MAJOR} into ${cache}\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false', `${SUITE_PACKAGE}@${SUITE_VERSION}`, `${nodePkg}@${NODE_MAJOR}`], { cwd: cache, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`npm install in ${cache} failed with status ${String(result.status)}.`);
  }
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (!version.startsWith(`v${NODE_MAJOR}.`)) throw new Error(`${node} reports ${version}, expected Node ${NODE_MAJOR}.`);
  return { node, suite };
}

const children: ChildProcess[] = [];
function start(args: string[], label: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${label}] ${chunk.toString()}`));
  children.push(child);
  return child;
}

/** Junction prints its base URL on stderr once listening. */
function baseUrlOf(junction: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error('Junction did not report its address in time.')), READY_TIMEOUT_MS);
    junction.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /MCP\s+(http:\/\/[^\s]+)\/mcp/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    });
    junction.once('exit', (code) => reject(new Error(`Junction exited with status ${String(code)} before it was ready.`)));
  });
}

async function waitForFixture(baseUrl: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/api/tools`).catch(() => undefined);
    const body = response?.ok ? JSON.stringify(await response.json()) : '';
    if (FIXTURE_TOOLS.every((tool) => body.includes(`"${tool}"`))) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('The conformance fixture plugin did not publish its tools in time.');
}

async function main(): Promise<number> {
  const { node, suite } = ensureToolchain();
  const state = mkdtempSync(join(tmpdir(), 'junction-conformance-'));
  try {
    const junction = start(['src-main/app/cli.ts', 'serve', 'port=0', `state-dir=${state}`, 'console=false', 'log-level=warn'], 'junction');
    const baseUrl = await baseUrlOf(junction);
    start(['plugins/examples/conformance/main.ts', '--endpoint', `${baseUrl}/hub/mcp-server`], 'fixture');
    await waitForFixture(baseUrl);
    const args = [suite, 'server', '--url', `${baseUrl}/mcp`, ...(options.scenario ? ['--scenario', options.scenario] : ['--suite', options.suite])];
    const run = spawn(node, args, { cwd: root, stdio: 'inherit' });
    return await new Promise<number>((r) => run.once('exit', (code) => r(code ?? 1)));
  } finally {
    // The plugin first, so it does not spend the shutdown reconnecting to a stopped Junction.
    for (const child of [...children].reverse()) child.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
    rmSync(state, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    for (const child of children) child.kill('SIGTERM');
    process.exit(1);
  },
);
