/**
 * The plugin bridge's door: attaches McpPlugin's hub methods (and MCP extension 1) to a SignalR hub
 * and returns the PluginBridge built on them.
 *
 *   const hub = createHubServer({ ... });
 *   const bridge = attachPluginHub(hub, { pluginTimeoutMs, pluginReconnectWaitSeconds, projectRouting });
 *   bridge.tools / bridge.selectionTools              -> ToolSources for the catalogue (tools/list, tools/call)
 *   bridge.content                                     -> prompts, resources, completion, subscriptions, log lines (the MCP room's ContentSource)
 *   bridge.systemTools                                 -> /api/system-tools (never MCP)
 *   bridge.projects                                    -> project routing for the console, the path gate and the agents view
 *   bridge.pluginViews(), bridge.events                -> the console (pluginConnected|pluginUpdated|pluginDisconnected|diagnostic|listDegraded|log)
 *   bridge.dispose()                                   -> unregisters from the hub
 *
 * Layout of the bridge below this door: registry/ (one project's plugins, routing; pure) under
 * projects/ (plugins grouped by project, agents' project resolution; pure) under source/ (what agents
 * and the console see); calls/ is the call guard and the reply-to-outcome mapping; signalr/ the hub.
 */
export { attachPluginHub, type AttachPluginHubOptions } from './attach.js';
export { MAX_PENDING_PER_CALL } from './active-calls.js';
export type { AgentLogEntry, BridgeContent, BridgeEvents, PluginBridge, PluginLogEntry, SystemToolList } from '../source/index.js';
