/**
 * Pure configuration resolution: command line, then environment, then settings file, then defaults.
 * Every problem is collected and reported together, each naming its key and where it came from.
 */
import { JunctionError } from '../../contracts/index.js';
import { closestNames, didYouMean } from '../../shared/index.js';
import { CONFIG_KEYS, envNameOf, type Config, type ConfigKey, type KeySpec } from './schema.js';

export type Origin = 'command line' | 'environment' | 'settings file';

export interface RawValue {
  key: string;
  value: unknown;
  origin: Origin;
  /** How the user spelled it, for messages (`--port`, `JUNCTION_PORT`, `"port"`). */
  source: string;
}

export interface ParsedArgs {
  positionals: string[];
  values: RawValue[];
}

const isKnownKey = (key: string): key is ConfigKey => Object.hasOwn(CONFIG_KEYS, key);

/** Splits argv into positionals and `key=value` / `--key value` / `--key=value` settings. */
export function parseArgv(argv: readonly string[]): { parsed: ParsedArgs; problems: string[] } {
  const positionals: string[] = [];
  const values: RawValue[] = [];
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const body = arg.slice(2);
      const eq = body.indexOf('=');
      const key = eq >= 0 ? body.slice(0, eq) : body;
      let value: string | undefined = eq >= 0 ? body.slice(eq + 1) : undefined;
      if (value === undefined) {
        const spec = isKnownKey(key) ? (CONFIG_KEYS[key] as KeySpec) : undefined;
        const following = argv[i + 1];
        if (following !== undefined && !following.startsWith('--')) {
          value = following;
          i++;
        } else if (spec?.type.kind === 'bool') {
          value = 'true';
        } else {
          problems.push(`--${key}: a value is required (use --${key} VALUE or ${key}=VALUE)`);
          continue;
        }
      }
      values.push({ key, value, origin: 'command line', source: `--${key}` });
    } else if (/^[a-z][a-z0-9-]*=/.test(arg)) {
      const eq = arg.indexOf('=');
      const key = arg.slice(0, eq);
      values.push({ key, value: arg.slice(eq + 1), origin: 'command line', source: key });
    } else {
      positionals.push(arg);
    }
  }
  return { parsed: { positionals, values }, problems };
}

/** Reads `JUNCTION_*` variables; an unknown one is a problem, not silently ignored. */
export function readEnv(env: Readonly<Record<string, string | undefined>>): { values: RawValue[]; problems: string[] } {
  const byEnvName = new Map(Object.keys(CONFIG_KEYS).map((k) => [envNameOf(k), k]));
  const values: RawValue[] = [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('JUNCTION_') || value === undefined) continue;
    const key = byEnvName.get(name);
    if (!key) {
      // Compared without the shared prefix, which would otherwise make every name look alike.
      const asKey = name.slice('JUNCTION_'.length).toLowerCase().replace(/_/g, '-');
      problems.push(`${name}: unknown setting.${didYouMean(closestNames(asKey, Object.keys(CONFIG_KEYS)).map(envNameOf))} (known: ${[...byEnvName.keys()].join(', ')})`);
      continue;
    }
    values.push({ key, value, origin: 'environment', source: name });
  }
  return { values, problems };
}

/** Reads a parsed settings-file object (kebab-case keys). */
export function readSettings(settings: unknown, path: string): { values: RawValue[]; problems: string[] } {
  if (settings === undefined) return { values: [], problems: [] };
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
    return { values: [], problems: [`${path}: the settings file must hold a JSON object`] };
  }
  const values = Object.entries(settings).map(([key, value]) => ({ key, value, origin: 'settings file' as const, source: `"${key}" in ${path}` }));
  return { values, problems: [] };
}

function coerce(spec: KeySpec, raw: RawValue): { ok: true; value: unknown } | { ok: false; problem: string } {
  const { type } = spec;
  const text = typeof raw.value === 'string' ? raw.value.trim() : raw.value;
  const fail = (expected: string) => ({ ok: false as const, problem: `${raw.source} (${raw.origin}): expected ${expected}, got ${JSON.stringify(raw.value)}` });
  switch (type.kind) {
    case 'int': {
      const n = typeof text === 'number' ? text : typeof text === 'string' && /^-?\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(n) || n < type.min || n > type.max) return fail(`an integer from ${type.min} to ${type.max}`);
      return { ok: true, value: n };
    }
    case 'bool': {
      if (typeof text === 'boolean') return { ok: true, value: text };
      if (typeof text === 'string' && /^(true|1|yes|on)$/i.test(text)) return { ok: true, value: true };
      if (typeof text === 'string' && /^(false|0|no|off)$/i.test(text)) return { ok: true, value: false };
      return fail('true or false');
    }
    case 'enum': {
      if (typeof text !== 'string' || !type.values.includes(text)) return fail(`one of ${type.values.join(', ')}`);
      return { ok: true, value: text };
    }
    case 'list': {
      if (Array.isArray(text) && text.every((v) => typeof v === 'string')) return { ok: true, value: text };
      if (typeof text === 'string') return { ok: true, value: text.split(',').map((s) => s.trim()).filter(Boolean) };
      return fail('a comma-separated list or an array of strings');
    }
    case 'string': {
      if (typeof text !== 'string' || text.length === 0) return fail('a non-empty string');
      return { ok: true, value: text };
    }
  }
}

/** Where each key that did not keep its default came from. */
export type ConfigOrigins = Partial<Record<ConfigKey, { origin: Origin; source: string }>>;

/**
 * Resolves layers into a Config. Layers are given highest precedence first; for a key set in several
 * layers the first wins, but every layer is still validated so a bad value never hides.
 */
export function resolveConfig(layers: ReadonlyArray<{ values: RawValue[]; problems?: string[] }>): Config {
  return resolveConfigWithOrigins(layers).config;
}

/** resolveConfig, also telling where each chosen value came from (the console's Settings view shows it). */
export function resolveConfigWithOrigins(layers: ReadonlyArray<{ values: RawValue[]; problems?: string[] }>): { config: Config; origins: ConfigOrigins } {
  const problems: string[] = layers.flatMap((l) => l.problems ?? []);
  const chosen = new Map<string, unknown>();
  const origins: ConfigOrigins = {};
  for (const layer of layers) {
    for (const raw of layer.values) {
      if (!isKnownKey(raw.key)) {
        problems.push(`${raw.source} (${raw.origin}): unknown setting '${raw.key}'.${didYouMean(closestNames(raw.key, Object.keys(CONFIG_KEYS)))}`);
        continue;
      }
      const result = coerce(CONFIG_KEYS[raw.key] as KeySpec, raw);
      if (!result.ok) problems.push(result.problem);
      else if (!chosen.has(raw.key)) {
        chosen.set(raw.key, result.value);
        origins[raw.key] = { origin: raw.origin, source: raw.source };
      }
    }
  }
  if (problems.length > 0) {
    throw new JunctionError('ConfigInvalid', `Invalid configuration:\n  ${problems.join('\n  ')}`, { details: { problems } });
  }
  const config: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(CONFIG_KEYS) as Array<[ConfigKey, KeySpec]>) {
    config[key] = chosen.has(key) ? chosen.get(key) : spec.default;
  }
  return { config: config as Config, origins };
}
