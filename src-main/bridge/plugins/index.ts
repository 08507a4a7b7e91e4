/**
 * The plugin bridge's public door: the registry of McpPlugin connections (roles, replacement,
 * catalogues), editor/runtime routing, the 8.14 call guard, and the ToolSource built on them.
 *
 * Usage (the composing server):
 *   const hub = createHubServer({ ... });
 *   const bridge = attachPluginHub(hub, { pluginTimeoutMs, pluginReconnectWaitSeconds });
 *   bridge.listTools() / bridge.callTool(name, args, ctx)         -> ToolSource (tools/list, tools/call)
 *   bridge.listPrompts() / bridge.getPrompt(name, args)             -> ListPromptsResult / GetPromptResult
 *   bridge.listResources() / bridge.listResourceTemplates()         -> ListResourcesResult / ListResourceTemplatesResult
 *   bridge.readResource(uri)                                        -> ReadResourceResult
 *   bridge.onToolsChanged / onPromptsChanged / onResourcesChanged   -> list_changed notifications
 *   bridge.systemToolTarget() / listSystemTools(id) / callSystemTool(id, name, args, signal) -> /api/system-tools (never MCP)
 *   bridge.pluginViews(), bridge.events (pluginConnected|pluginUpdated|pluginDisconnected|diagnostic|log) -> console
 *   bridge.dispose()                                                -> unregisters from the hub
 *
 * callTool never throws for plugin or routing failures: it answers an error outcome whose code
 * decides its kind and status (contracts/error-table.ts), except a status an 8.x plugin declared itself. getPrompt and readResource throw JunctionError with a stable code
 * (PromptNotFound/ResourceNotFound, PluginUnavailable, ToolTimeout, InvalidArguments, Conflict, InternalError).
 */
export { attachPluginHub, type AttachPluginHubOptions } from './hub-adapter.js';
export { BridgeToolSource, type BridgeEvents, type PluginLogEntry, type PluginPort, type SystemToolList } from './bridge-source.js';
export { PluginRegistry, type DuplicateToolDiagnostic, type ListDegradedDiagnostic, type HandshakeOutcome, type PluginConnectionInfo, type RegistryEvents } from './registry.js';
export { routeTool, type RouteDecision } from './routing.js';
export { guardedCall, InvokeFailure, type GuardSettings, type InvokeFailureReason, type ToolInvoker } from './call-guard.js';
export { errorCodeOfReply, outcomeFromReply, replyFromEnvelope, isNotExecuted, type PluginReply } from './outcome.js';
export { declaredRole, resolveRole, isGuardedVersion } from './roles.js';
export { evaluateHandshake } from './handshake.js';
export type { AwaitedPlugin, PluginCatalogue, PluginRecord } from './records.js';
