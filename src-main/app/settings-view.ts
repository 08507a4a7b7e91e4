/**
 * The effective configuration for the console's Settings view: every key with its value, where it came
 * from and whether it may change while Junction runs. Secrets never leave in clear. Runtime changes are
 * validated against the same key table as the command line and applied through the setters given here.
 */
import type { SettingOrigin, SettingsView, SettingView } from '../contracts/index.js';
import { JunctionError } from '../contracts/index.js';
import { CONFIG_KEYS, type Config, type ConfigKey, type ConfigOrigins } from './config/index.js';

const SECRET_KEYS: ReadonlySet<ConfigKey> = new Set(['token', 'webhook-token']);
const MASK = '••••••';

/** Applies a validated runtime value; returns nothing, throws to refuse. */
type Setter = (value: never) => void;

export interface RuntimeSettingsOptions {
  config: Config;
  origins: ConfigOrigins;
  settingsPath?: string;
  /** The keys the running instance can change, each with the function that applies it. */
  setters: Partial<Record<ConfigKey, Setter>>;
}

function displayValue(key: ConfigKey, value: unknown): SettingView['value'] {
  if (value === undefined) return null;
  if (SECRET_KEYS.has(key)) return MASK;
  // URLs may carry credentials in their user-info part.
  if (typeof value === 'string' && /^[a-z]+:\/\/[^/@]+@/i.test(value)) return value.replace(/\/\/[^/@]+@/, `//${MASK}@`);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  return String(value);
}

export class RuntimeSettings {
  private readonly values: Config;
  private readonly changed = new Set<ConfigKey>();

  constructor(private readonly options: RuntimeSettingsOptions) {
    this.values = { ...options.config };
  }

  view(): SettingsView {
    const settings = (Object.keys(CONFIG_KEYS) as ConfigKey[]).map((key): SettingView => {
      const spec = CONFIG_KEYS[key];
      const from = this.options.origins[key];
      const origin: SettingOrigin = this.changed.has(key) ? 'console' : (from?.origin ?? 'default');
      const view: SettingView = { key, value: displayValue(key, this.values[key]), secret: SECRET_KEYS.has(key), origin, description: spec.description };
      if (from && !this.changed.has(key)) view.source = from.source;
      if (this.options.setters[key]) {
        const type = spec.type;
        if (type.kind === 'enum') view.editable = { kind: 'enum', values: [...type.values] };
        else if (type.kind === 'int') view.editable = { kind: 'int', min: type.min, max: type.max };
      }
      return view;
    });
    return { ...(this.options.settingsPath ? { settingsPath: this.options.settingsPath } : {}), settings };
  }

  /** Validates and applies one runtime change; the file and the environment are left as they are. */
  update(key: string, raw: string | number): SettingsView {
    if (!Object.hasOwn(CONFIG_KEYS, key)) throw new JunctionError('InvalidArguments', `Unknown setting '${key}'.`);
    const k = key as ConfigKey;
    const setter = this.options.setters[k];
    if (!setter) throw new JunctionError('InvalidArguments', `'${key}' cannot change while Junction runs; set it on the command line, in JUNCTION_* or in the settings file and restart.`);
    const type = CONFIG_KEYS[k].type;
    let value: string | number;
    if (type.kind === 'int') {
      const n = typeof raw === 'number' ? raw : /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
      if (!Number.isSafeInteger(n) || n < type.min || n > type.max) throw new JunctionError('InvalidArguments', `${key}: expected an integer from ${type.min} to ${type.max}, got ${JSON.stringify(raw)}.`);
      value = n;
    } else if (type.kind === 'enum') {
      if (typeof raw !== 'string' || !(type.values as readonly string[]).includes(raw)) throw new JunctionError('InvalidArguments', `${key}: expected one of ${type.values.join(', ')}, got ${JSON.stringify(raw)}.`);
      value = raw;
    } else {
      throw new JunctionError('InvalidArguments', `'${key}' cannot change while Junction runs.`);
    }
    (setter as (v: string | number) => void)(value);
    (this.values as Record<string, unknown>)[k] = value;
    this.changed.add(k);
    return this.view();
  }
}
