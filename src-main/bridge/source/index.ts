/**
 * The bridge as agents and the console see it, split by job: tools (tools.ts), system tools
 * (system-tools.ts), prompts, resources, completion and subscriptions (prompts.ts, resources.ts,
 * completion.ts, subscriptions.ts), the events re-emitted from the registry and the awaited-plugin
 * expiry (events.ts), assembled into one PluginBridge (plugin-bridge.ts). The hub adapter
 * (bridge/plugin-hub) supplies the PluginPort and builds it.
 *
 * Failures of plugin tool calls are outcomes whose code decides their kind and status
 * (contracts/error-table.ts); prompts, resources and completion throw JunctionError with a stable code.
 */
export { createPluginBridge, type BridgeContent, type PluginBridge, type PluginBridgeParts } from './plugin-bridge.js';
export type { BridgeEvents } from './events.js';
export { ResourceSubscriptions } from './subscriptions.js';
export type { AgentLogEntry, ContentCallOptions, PluginLogEntry, PluginPort, SourceContext } from './plugin-port.js';
export type { SystemToolList } from './system-tools.js';
export type { BridgeTools } from './tools.js';
export type { BridgeSystemTools } from './system-tools.js';
