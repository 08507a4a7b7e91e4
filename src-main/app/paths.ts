/** Locates files shipped with Junction, from source (tsx) and from the compiled dist/ tree alike. */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src-main'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot locate the Junction project root above ${start}`);
    dir = parent;
  }
}

const HERE = fileURLToPath(import.meta.url);
export const PROJECT_ROOT = findProjectRoot(dirname(HERE));
/** Compiled modules import compiled plugins; tsx-run sources import TypeScript ones. */
const RUNNING_BUILT = HERE.startsWith(join(PROJECT_ROOT, 'dist') + sep);
export const CONSOLE_BUNDLE_DIR = join(PROJECT_ROOT, 'src-renderer', 'dist');
export const DEMO_WORKSPACE_DIR = join(PROJECT_ROOT, 'demo', 'workspace');
export const EXAMPLE_IN_PROCESS_PLUGINS_DIR = join(PROJECT_ROOT, ...(RUNNING_BUILT ? ['dist'] : []), 'plugins', 'examples', 'in-process');
const CLI_BUILT = join(PROJECT_ROOT, 'dist', 'src-main', 'app', 'cli.js');
const CLI_SOURCE = join(PROJECT_ROOT, 'src-main', 'app', 'cli.ts');

/**
 * How another process (an agent's launcher: Claude Desktop, an editor) runs this Junction's CLI: the build
 * when present, else the source with tsx named by its absolute URL (a launcher's working directory is
 * not this repository, where a bare `tsx` would resolve).
 */
export function cliInvocation(): string[] {
  return existsSync(CLI_BUILT) ? [CLI_BUILT] : ['--import', import.meta.resolve('tsx'), CLI_SOURCE];
}

/**
 * The Node such a launcher starts it with: this one by its absolute path, since a launcher started from
 * a desktop often has no Node on its PATH; under Electron, whose binary is not Node, `node`.
 */
export function nodeCommand(): string {
  return process.versions.electron ? 'node' : process.execPath;
}
