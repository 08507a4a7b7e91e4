/** Builders for registry-level unit tests: plugin connections, handshakes and tool descriptors. */
import { MCP_PLUGIN_VERSION, ResponseListToolSchema, type ResponseListTool } from '../../../../plugins/sdk/wire/index.js';
import { PluginRegistry } from '../../../../src-main/bridge/registry/index.js';

export function tool(name: string, inputSchema: Record<string, unknown> = { type: 'object' }): ResponseListTool {
  return ResponseListToolSchema.parse({ name, inputSchema });
}

export interface JoinOptions {
  role?: 'editor' | 'runtime';
  header?: 'editor' | 'runtime';
  name?: string;
  environment?: string;
  /** `null` sends no mcpPluginVersion (an 8.0-era plugin). */
  mcpPluginVersion?: string | null;
  tools?: string[];
}

let counter = 0;

/** Connects and handshakes one plugin; returns its connection id and the ids it replaced. */
export function join(registry: PluginRegistry, options: JoinOptions = {}): { id: string; replaced: string[] } {
  const id = `c${++counter}`;
  const query = new URLSearchParams();
  if (options.role) query.set('client_role', options.role);
  if (options.name) query.set('project_name', options.name);
  registry.connect({ connectionId: id, query, headers: options.header ? { 'x-client-role': options.header } : {}, connectedAt: counter });
  const outcome = registry.handshake(id, {
    requestId: 'r',
    apiVersion: '2.0.0',
    pluginVersion: '1.0.0',
    environment: options.environment ?? 'test',
    mcpPluginVersion: options.mcpPluginVersion === null ? undefined : (options.mcpPluginVersion ?? MCP_PLUGIN_VERSION),
  });
  assertCompatible(outcome.response.compatible);
  if (options.tools) registry.setTools(id, options.tools.map((t) => tool(t)));
  return { id, replaced: outcome.replaced };
}

function assertCompatible(compatible: boolean): void {
  if (!compatible) throw new Error('fixture handshake was refused');
}

export function newRegistry(): PluginRegistry {
  return new PluginRegistry('8.16.0');
}
