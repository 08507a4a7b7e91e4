import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src-main/app/paths.js';

/** Runs the CLI from source, as a spawned agent launcher would. */
export const CLI_SOURCE_FOR_TESTS = ['--import', 'tsx', join(PROJECT_ROOT, 'src-main', 'app', 'cli.ts')];

/** This process's environment with a settings directory of its own, so a user's settings.json never leaks in. */
export function isolatedEnv(): Record<string, string> {
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { ...env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'junction-cfg-')) };
}
