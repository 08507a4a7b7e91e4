/** Where the hub is, which versions both sides speak, and the connect-URL keys (McpPlugin `Consts`). */

/** Hub path on the bridge (`Consts.Hub.RemoteApp`). */
export const HUB_PATH = '/hub/mcp-server';
export const DEFAULT_ENDPOINT = `http://localhost:8080${HUB_PATH}`;
/** Hub API version both sides exchange in the handshake (`Consts.ApiVersion`). */
export const API_VERSION = '2.0.0';
/** The McpPlugin contract version this SDK and the bridge speak. */
export const MCP_PLUGIN_VERSION = '8.16.0';
/** Plugins reporting at least this `mcpPluginVersion` get argument validation and the call guard. */
export const CALL_GUARD_MIN_VERSION = '8.14.0';
/** Default whole-call deadline (`Consts.Hub.DefaultTimeoutMs`). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Connect-URL query keys (`Consts.MCP.Server.HubQuery`, plus the seed's `client_role`). */
export const HubQuery = {
  clientRole: 'client_role',
  instanceId: 'instance_id',
  engine: 'engine',
  projectName: 'project_name',
  projectPathHash: 'project_path_hash',
  projectPathHashLegacy: 'project_path_hash_legacy',
  machineName: 'machine_name',
} as const;
export const CLIENT_ROLE_HEADER = 'x-client-role';
