/**
 * Who a plugin connection is: its role (editor or runtime) and whether it speaks the 8.14+ contract
 * that earns it argument validation, the call guard and role-aware replacement.
 */
import type { IncomingHttpHeaders } from 'node:http';
// The functions used, not the package's index, which loads all of semver's ranges and comparators at start.
import coerce from 'semver/functions/coerce.js';
import gte from 'semver/functions/gte.js';
import { CALL_GUARD_MIN_VERSION, CLIENT_ROLE_HEADER, HubQuery } from '../../../plugins/sdk/wire/index.js';
import type { PluginRole } from '../../contracts/index.js';

function parseRole(value: string | undefined | null): PluginRole | undefined {
  const v = value?.trim().toLowerCase();
  return v === 'editor' || v === 'runtime' ? v : undefined;
}

/** The role the connection declared (`client_role` query wins over `X-Client-Role`), if any. */
export function declaredRole(query: URLSearchParams, headers: IncomingHttpHeaders): PluginRole | undefined {
  const header = headers[CLIENT_ROLE_HEADER];
  return parseRole(query.get(HubQuery.clientRole)) ?? parseRole(Array.isArray(header) ? header[0] : header);
}

/**
 * The role a plugin is served as. A declared role wins. An 8.14+ plugin that declares none is a
 * runtime when its handshake environment ends in "(runtime)"; an 8.x plugin (no role, no
 * `mcpPluginVersion`) is always an editor, as McpPlugin.Server serves its one connection.
 */
export function resolveRole(declared: PluginRole | undefined, environment: string | undefined, guarded = true): PluginRole {
  if (declared) return declared;
  return guarded && environment?.trim().toLowerCase().endsWith('(runtime)') ? 'runtime' : 'editor';
}

/** True when the reported McpPlugin version is 8.14.0 or newer; absent or unparsable means an older plugin. */
export function isGuardedVersion(mcpPluginVersion: string | undefined): boolean {
  if (!mcpPluginVersion) return false;
  const parsed = coerce(mcpPluginVersion, { includePrerelease: true });
  return parsed !== null && gte(parsed, CALL_GUARD_MIN_VERSION);
}
