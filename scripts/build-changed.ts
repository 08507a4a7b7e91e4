/**
 * `npm start`'s build: only what changed since the last one. The core goes through `tsc -b`, which
 * keeps a build-info file in dist/ and skips an up-to-date project in well under a second; the console
 * bundle is rebuilt only when a file it is built from is newer than the bundle. `npm run build` stays
 * the full build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

function filesUnder(dir: string, skip: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (skip(full)) continue;
    if (entry.isDirectory()) out.push(...filesUnder(full, skip));
    else out.push(full);
  }
  return out;
}

/** A relative specifier as the file it names (`.js` written for a `.ts` source, as NodeNext wants). */
function resolveImport(from: string, specifier: string): string | undefined {
  const target = resolve(dirname(from), specifier);
  return [target, target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), `${target}.ts`, `${target}.tsx`].find((f) => existsSync(f) && statSync(f).isFile());
}

/**
 * Every file the console bundle is built from: its own folder (less its output) plus whatever its
 * sources import from outside it, followed transitively (today a few shared contract modules).
 */
export function rendererInputs(rendererDir: string, extra: readonly string[]): string[] {
  const outDir = join(rendererDir, 'dist');
  const own = filesUnder(rendererDir, (p) => p === outDir || p.endsWith('node_modules'));
  const seen = new Set<string>(own);
  const queue = own.filter((f) => /\.(ts|tsx)$/.test(f));
  while (queue.length > 0) {
    const file = queue.pop()!;
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolveImport(file, match[1]!);
      if (target && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen, ...extra.filter((f) => existsSync(f))];
}

/** Why the bundle at `output` must be rebuilt from `inputs`, or undefined when it is newer than all of them. */
export function staleBecause(output: string, inputs: readonly string[]): string | undefined {
  if (!existsSync(output)) return `${relative(ROOT, output)} does not exist`;
  const built = statSync(output).mtimeMs;
  const newer = inputs.find((f) => statSync(f).mtimeMs > built);
  return newer ? `${relative(ROOT, newer)} changed since the last build` : undefined;
}

function run(label: string, args: string[]): void {
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  process.stderr.write(`build: ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

function main(): void {
  run('core (tsc -b, incremental)', [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json']);
  const rendererDir = join(ROOT, 'src-renderer');
  const reason = staleBecause(join(rendererDir, 'dist', 'index.html'), rendererInputs(rendererDir, [join(ROOT, 'package.json'), join(ROOT, 'package-lock.json')]));
  if (reason === undefined) {
    process.stderr.write('build: console bundle is up to date\n');
    return;
  }
  process.stderr.write(`build: console bundle: ${reason}\n`);
  run('console bundle (vite)', [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'src-renderer/vite.config.ts', '--logLevel', 'warn']);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
