/**
 * Which project a plugin belongs to, sent on the connect URL as McpPlugin 8.x sends it
 * (ConnectionInstanceMetadata): `project_path_hash` is the SHA-256 of the v2-normalized project root
 * (trailing separators trimmed, `\` as `/`, lower-cased as .NET's ToLowerInvariant does),
 * `project_path_hash_legacy` the v1 hash (no separator conversion), so a Junction in
 * `project-routing=multi` (or McpPlugin.Server) gives the plugin a pin: the start of that hash.
 * Source: McpPlugin/src/AgentConfig/ProjectIdentity.cs at aefc899 and its golden vectors.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';

export interface ProjectIdentity {
  /** The project's name as the console shows it (`project_name`); defaults to the plugin's name. */
  name?: string;
  /** The project root; hashed here as McpPlugin hashes it. */
  path?: string;
  /** Or the hash itself (full 64-character hex), when the app already has McpPlugin's. */
  pathHash?: string;
  /** The engine or app kind (`engine`), e.g. `Unity`. */
  engine?: string;
  /** `machine_name`; defaults to this host's name. */
  machine?: string;
  /** `instance_id`: one per app session, kept across reconnects; defaults to a fresh UUID per plugin. */
  instanceId?: string;
}

function trimTrailingSeparators(path: string): string {
  let end = path.length;
  while (end > 1 && (path[end - 1] === '/' || path[end - 1] === '\\')) end--;
  return path.slice(0, end);
}

/**
 * .NET's ToLowerInvariant maps each character alone (simple case mapping); JavaScript's toLowerCase
 * applies special casing too, turning U+0130 into two characters. A character whose lower case is not
 * one character keeps itself, as .NET keeps it.
 */
function toLowerInvariant(text: string): string {
  let out = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    out += [...lower].length === 1 ? lower : char;
  }
  return out;
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** McpPlugin's ProjectIdentity.DeriveProjectPathHashV2. */
export function projectPathHash(projectRoot: string): string {
  return sha256Hex(toLowerInvariant(trimTrailingSeparators(projectRoot).replaceAll('\\', '/')));
}

/** McpPlugin's ProjectIdentity.DeriveProjectPathHash (v1, sent as `project_path_hash_legacy`). */
export function projectPathHashLegacy(projectRoot: string): string {
  return sha256Hex(toLowerInvariant(trimTrailingSeparators(projectRoot)));
}

/** The connect-URL query fields of an identity; empty fields are left out, as McpPlugin leaves them out. */
export function projectQuery(identity: ProjectIdentity, defaults: { name: string; instanceId: string }): Array<[key: string, value: string]> {
  const fields: Array<[string, string | undefined]> = [
    ['instance_id', identity.instanceId ?? defaults.instanceId],
    ['engine', identity.engine],
    ['project_name', identity.name ?? defaults.name],
    ['project_path_hash', identity.pathHash?.toLowerCase() ?? (identity.path === undefined ? undefined : projectPathHash(identity.path))],
    ['project_path_hash_legacy', identity.path === undefined ? undefined : projectPathHashLegacy(identity.path)],
    ['machine_name', identity.machine ?? (identity.path === undefined && identity.pathHash === undefined ? undefined : hostname())],
  ];
  return fields.filter((field): field is [string, string] => field[1] !== undefined && field[1] !== '');
}
