/**
 * `npm run conformance`: the official MCP conformance suite's server scenarios against Junction's /mcp
 * with the conformance fixture plugin connected through the bridge, once per protocol revision Junction
 * serves (each revision's frozen requirement set, run at its own wire version).
 *
 * The suite's version is pinned in package.json (`config.conformanceSuite`), nowhere else. A revision
 * Junction does not yet pass in full has its known failures in scripts/conformance-expected.json, each
 * with its reason; the suite itself then fails the run on an unlisted failure and on a listed scenario
 * that passes (a stale entry), so the list can only shrink.
 *
 * The suite needs Node >= 22 while the project runs on Node 20, so the suite and a Node 22 binary (the
 * npm registry's `node-<platform>-<arch>` package, which ships the binary in its tarball) are installed
 * into a cache folder with the ordinary npm client; the project's own Node and package.json are untouched.
 *
 *   npm run conformance [-- --revision 2025-11-25|2026-07-28]   (default: every revision)
 *   npm run conformance -- --scenario NAME [--revision R]        (one scenario, expected failures not applied)
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
const NODE_MAJOR = 22;
const READY_TIMEOUT_MS = 60_000;
/** Every tool the fixture publishes must be in the catalogue before the suite starts. */
const FIXTURE_TOOLS = ['test_simple_text', 'test_sampling', 'test_elicitation', 'json_schema_2020_12_tool'];

/** The revisions Junction serves on one endpoint, each measured against its own requirement set. */
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
type Revision = (typeof REVISIONS)[number];

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SUITE_VERSION = z
  .object({ config: z.object({ conformanceSuite: z.string().regex(/^\d+\.\d+\.\d+(-[\w.]+)?$/) }) })
  .parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))).config.conformanceSuite;

/**
 * Known failures per revision: scenario (or `scenario:check-id`) to the reason it fails today. Only the
 * newer revision may have any: 2025-11-25 must pass in full.
 */
const ExpectedFailures = z.strictObject({ '2026-07-28': z.record(z.string().min(1), z.string().min(10, 'each expected failure needs its reason')) });
const expectedFailures = ExpectedFailures.parse(JSON.parse(readFileSync(join(root, 'scripts', 'conformance-expected.json'), 'utf8')));

const { values } = parseArgs({ options: { scenario: { type: 'string' }, revision: { type: 'string' } }, strict: true });
const options = z.object({ scenario: z.string().min(1).optional(), revision: z.enum(REVISIONS).optional() }).parse(values);

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

/** The suite's own baseline format, written from the committed list (reasons stay in the list). */
function baselineFile(dir: string, revision: Revision): string[] {
  const entries = revision === '2026-07-28' ? Object.keys(expectedFailures[revision]) : [];
  if (entries.length === 0) return [];
  const file = join(dir, `expected-${revision}.yaml`);
  writeFileSync(file, `server:\n${entries.map((e) => `  - ${JSON.stringify(e)}\n`).join('')}`);
  return ['--expected-failures', file];
}

function runSuite(node: string, args: string[]): Promise<number> {
  const run = spawn(node, args, { cwd: root, stdio: 'inherit' });
  return new Promise<number>((r) => run.once('exit', (code) => r(code ?? 1)));
}

async function main(): Promise<number> {
  const { node, suite } = ensureToolchain();
  const state = mkdtempSync(join(tmpdir(), 'junction-conformance-'));
  try {
    const junction = start(['src-main/app/cli.ts', 'serve', 'port=0', `state-dir=${state}`, 'console=false', 'log-level=warn'], 'junction');
    const baseUrl = await baseUrlOf(junction);
    start(['plugins/examples/conformance/main.ts', '--endpoint', `${baseUrl}/hub/mcp-server`], 'fixture');
    await waitForFixture(baseUrl);
    const url = `${baseUrl}/mcp`;
    if (options.scenario) {
      const version = options.revision ? ['--spec-version', options.revision] : [];
      return await runSuite(node, [suite, 'server', '--url', url, '--scenario', options.scenario, ...version]);
    }
    const failed: Revision[] = [];
    for (const revision of options.revision ? [options.revision] : REVISIONS) {
      process.stderr.write(`conformance: ${SUITE_PACKAGE}@${SUITE_VERSION}, requirements ${revision}\n`);
      const code = await runSuite(node, [suite, 'server', '--url', url, '--requirements', revision, ...baselineFile(state, revision)]);
      if (code !== 0) failed.push(revision);
    }
    if (failed.length) process.stderr.write(`conformance: failed for ${failed.join(', ')}\n`);
    return failed.length ? 1 : 0;
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
