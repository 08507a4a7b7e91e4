/**
 * The thin adapter between the SignalR hub and the bridge: hub methods and connection events in,
 * server-to-plugin invocations out. It builds the project registry, the hub's PluginPort and the
 * PluginBridge on them; every decision lives in the registry, the call guard and the source.
 */
import { z } from 'zod';
import { DEFAULT_TIMEOUT_MS, MCP_PLUGIN_VERSION } from '../../../plugins/sdk/wire/index.js';
import { JunctionError, type ToolVisibility } from '../../contracts/index.js';
import { TypedEmitter } from '../../shared/index.js';
import type { GuardSettings } from '../calls/index.js';
import { ProjectRegistry } from '../projects/index.js';
import type { HubConnection, HubServer } from '../signalr/index.js';
import { createPluginBridge, ResourceSubscriptions, type BridgeEvents, type PluginBridge, type SourceContext } from '../source/index.js';
import { CatalogueRefresh } from './catalogue-refresh.js';
import { attachExtensionMethods } from './extension-methods.js';
import { HubPluginPort } from './hub-plugin-port.js';
import { attachMcpPluginMethods } from './mcp-plugin-methods.js';
import { attachOperatorNotices } from './operator-notices.js';
import { attachSizeRefusals, refusalReporter } from './size-refusals.js';
import { hubWire } from './payloads.js';

/**
 * The MCP SDK's request timeout (DEFAULT_REQUEST_TIMEOUT_MSEC of @modelcontextprotocol/sdk/shared/protocol.js),
 * which bounds a session's elicitation and sampling requests to its agent. Written out because importing
 * it loads the SDK's Protocol, and zod v3 with it, at start; a unit test holds the two equal.
 */
export const SDK_REQUEST_TIMEOUT_MS = 60_000;

const optionsSchema = z.object({
  /** Whole-call deadline for 8.14+ plugins and the invoke timeout for older ones. */
  pluginTimeoutMs: z.number().int().positive().default(DEFAULT_TIMEOUT_MS),
  /** How long a departed plugin is awaited back (routing waits for it; notExecuted calls are re-sent within it). */
  pluginReconnectWaitSeconds: z.number().min(0).default(10),
  /** How often a `notExecuted` call is re-sent while its plugin stays connected. */
  resendIntervalMs: z.number().int().positive().default(2_000),
  serverVersion: z.string().default(MCP_PLUGIN_VERSION),
  /** `single`: one editor and one runtime in all (newest wins); `multi`: one of each per project. */
  projectRouting: z.enum(['single', 'multi']).default('single'),
  /**
   * How long a plugin's elicitation or sampling request waits for the agent or the operator; while it
   * waits its call's deadline stands still. The MCP SDK's own request timeout, so both answerers are bounded alike.
   */
  agentRequestTimeoutMs: z.number().int().positive().default(SDK_REQUEST_TIMEOUT_MS),
});

export type AttachPluginHubOptions = z.input<typeof optionsSchema> & { now?: () => number; visibility?: ToolVisibility };

/**
 * Wires the McpPlugin hub methods (and MCP extension 1) and connection events of `hub` to a new
 * project registry and returns the bridge. `bridge.dispose()` unregisters everything it registered.
 */
export function attachPluginHub(hub: HubServer, options: AttachPluginHubOptions = {}): PluginBridge {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new JunctionError('ConfigInvalid', `Invalid plugin bridge options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const config = parsed.data;
  const now = options.now ?? Date.now;
  const waitMs = config.pluginReconnectWaitSeconds * 1000;
  const projects = new ProjectRegistry(config.serverVersion, config.projectRouting, now);
  const events = new TypedEmitter<BridgeEvents>();
  /** Told once per malformed plugin payload or failed list, so the operator sees what an agent got an error for. */
  const warn = (connectionId: string, message: string) => events.emit('log', { connectionId, origin: 'bridge', level: 'warning', message });
  // Each pending agent request occupies one of the connection's parallel hub invocations; half stay free for its other methods.
  const refused = refusalReporter(projects, events, warn, now);
  const port = new HubPluginPort(
    now,
    warn,
    { maxPendingAgentRequestsPerConnection: Math.max(1, Math.floor(hub.maxParallelInvocations / 2)), agentRequestTimeoutMs: config.agentRequestTimeoutMs },
    (connectionId, message) => refused(connectionId, 'Call over the hub limit', message),
    (connectionId) => projects.get(connectionId)?.guarded === true,
  );
  const settings: GuardSettings = { timeoutMs: config.pluginTimeoutMs, reconnectWaitMs: waitMs, resendIntervalMs: config.resendIntervalMs, now };
  const context: SourceContext = { projects, port, settings, ...(options.visibility ? { visibility: options.visibility } : {}) };
  const subscriptions = new ResourceSubscriptions(context, events);
  const refresh = new CatalogueRefresh(projects, port, () => settings.timeoutMs, warn);
  const wire = hubWire(warn);

  const connected = (connection: HubConnection) => {
    port.connections.set(connection.id, connection);
    projects.connect({ connectionId: connection.id, query: connection.query, headers: connection.headers, connectedAt: connection.connectedAt });
  };
  const disposers = [
    ...attachMcpPluginMethods(hub, projects, port, refresh, wire),
    ...attachExtensionMethods(hub, port.calls, { subscriptions, events }, wire),
    ...attachOperatorNotices(hub, projects, events, wire, now),
    ...attachSizeRefusals(hub, port, refused),
    hub.events.on('connected', connected),
    hub.events.on('disconnected', ({ connection }) => {
      port.dropConnection(connection.id);
      refresh.forget(connection.id);
      projects.disconnect(connection.id, now(), waitMs);
    }),
  ];
  // Connections the hub accepted before the bridge attached are registered as if they had just connected.
  for (const connection of hub.connections()) connected(connection);
  return createPluginBridge({ context, events, subscriptions, disposers });
}
