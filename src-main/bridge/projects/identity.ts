/**
 * Which project a plugin connection belongs to, from the hub query the .NET McpPlugin client sends
 * (`instance_id`, `engine`, `project_name`, `project_path_hash`, `project_path_hash_legacy`,
 * `machine_name`; empty fields left out). Pure: validation and the grouping key only.
 */
import { z } from 'zod';
import { HubQuery } from '../../../plugins/sdk/wire/index.js';

export interface ProjectIdentity {
  instanceId?: string;
  engine?: string;
  projectName?: string;
  /** Lower-case hex; pins are prefixes of it (or of the legacy hash). */
  projectPathHash?: string;
  projectPathHashLegacy?: string;
  machineName?: string;
}

// A name is shown in the console and in agents' tool results: no control characters (they could
// forge log lines or terminal output) and no path separators (a project is named, never located).
const name = z
  .string()
  .max(256, 'is longer than 256 characters')
  .refine((v) => !/\p{Cc}/u.test(v), 'holds a control character')
  .refine((v) => !/[/\\]/.test(v), 'holds a path separator');
const hash = z
  .string()
  .regex(/^[0-9a-fA-F]{1,128}$/, 'is not 1-128 hexadecimal characters')
  .transform((v) => v.toLowerCase());

const FIELDS = [
  ['instanceId', HubQuery.instanceId, name],
  ['engine', HubQuery.engine, name],
  ['projectName', HubQuery.projectName, name],
  ['projectPathHash', HubQuery.projectPathHash, hash],
  ['projectPathHashLegacy', HubQuery.projectPathHashLegacy, hash],
  ['machineName', HubQuery.machineName, name],
] as const;

export type IdentityParse = { ok: true; identity: ProjectIdentity } | { ok: false; field: string; message: string };

/** Reads and validates the project fields; an empty or absent field is simply not there. */
export function projectIdentityOf(query: URLSearchParams): IdentityParse {
  const identity: ProjectIdentity = {};
  for (const [key, queryKey, schema] of FIELDS) {
    const raw = query.get(queryKey);
    if (raw === null || raw === '') continue;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      return { ok: false, field: queryKey, message: `The hub query field '${queryKey}' ${parsed.error.issues[0]?.message ?? 'is invalid'}.` };
    }
    identity[key] = parsed.data;
  }
  return { ok: true, identity };
}

/**
 * Connections with the same key are one project (its editor and runtime side by side). The path hash
 * identifies a project across editor restarts; without one, the project name does, then the instance.
 * Engine and machine are part of the key, as in McpPlugin.Server's dedup key.
 */
export function projectKeyOf(identity: ProjectIdentity, connectionId: string): string {
  const base = identity.projectPathHash
    ? `hash:${identity.projectPathHash}`
    : identity.projectName
      ? `name:${identity.projectName.toLowerCase()}`
      : identity.instanceId
        ? `instance:${identity.instanceId}`
        : `connection:${connectionId}`;
  return [base, identity.engine?.toLowerCase() ?? '', identity.machineName?.toLowerCase() ?? ''].join('\u0000');
}

/** How agents and operators name a project: `engine:project on machine`. */
export function projectLabel(identity: ProjectIdentity): string {
  const project = identity.projectName ?? identity.instanceId ?? '(unnamed project)';
  return `${identity.engine ? `${identity.engine}:` : ''}${project}${identity.machineName ? ` on ${identity.machineName}` : ''}`;
}

/** The shortest pin (at least 8 hex characters, the McpPlugin convention) that no other hash shares. */
export function pinFor(hashValue: string, others: readonly string[]): string {
  return pinsFor([hashValue, ...others]).get(hashValue)!;
}

const MIN_PIN_CHARS = 8;

function commonPrefixLength(a: string, b: string | undefined): number {
  if (b === undefined) return 0;
  let n = 0;
  while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/**
 * Every hash's pin among all the others at once (as `pinFor` gives each): in sorted order the hash
 * sharing the longest prefix with a given one is its neighbour, so this is one sort rather than a
 * comparison of every pair, which made each change of 1,000 connected projects cost seconds.
 */
export function pinsFor(hashes: readonly string[]): Map<string, string> {
  const sorted = [...new Set(hashes)].sort();
  const pins = new Map<string, string>();
  sorted.forEach((hash, i) => {
    const shared = Math.max(commonPrefixLength(hash, sorted[i - 1]), commonPrefixLength(hash, sorted[i + 1]));
    pins.set(hash, hash.slice(0, Math.min(hash.length, Math.max(MIN_PIN_CHARS, shared + 1))));
  });
  return pins;
}
