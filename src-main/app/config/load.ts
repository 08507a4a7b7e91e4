/** Adapter: gathers the three configuration layers from the process and the settings file on disk. */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { JunctionError } from '../../contracts/index.js';
import { parseArgv, readEnv, readSettings, resolveConfigWithOrigins, type ConfigOrigins } from './resolve.js';
import { strayArgumentProblems } from './stray-args.js';
import type { Config } from './schema.js';

export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'junction');
}

export function userStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'junction');
}

function readSettingsFile(path: string, explicit: boolean): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!explicit && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new JunctionError('ConfigInvalid', `settings: cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new JunctionError('ConfigInvalid', `settings: ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

export interface LoadedConfig {
  config: Config;
  origins: ConfigOrigins;
  settingsPath: string;
}

/** `argv` holds settings only (the command already taken off); anything else is refused, never ignored. */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const cli = parseArgv(argv);
  const fromEnv = readEnv(env);
  const explicitPath =
    cli.parsed.values.find((v) => v.key === 'settings')?.value ?? fromEnv.values.find((v) => v.key === 'settings')?.value;
  const settingsPath = typeof explicitPath === 'string' ? explicitPath : join(userConfigDir(env), 'settings.json');
  const settings = readSettings(readSettingsFile(settingsPath, typeof explicitPath === 'string'), settingsPath);
  const problems = [...cli.problems, ...strayArgumentProblems(cli.parsed.positionals, env)];
  const { config, origins } = resolveConfigWithOrigins([{ values: cli.parsed.values, problems }, fromEnv, settings]);
  return { config, origins, settingsPath };
}
