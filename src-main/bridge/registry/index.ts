/**
 * The plugin registry of one project (pure: no I/O, no timers; callers pass `now`): the connection
 * records, their roles and catalogues, replacement at the handshake, the awaited state of departed
 * plugins, duplicate-name diagnostics, and editor/runtime routing.
 *
 *   const registry = new PluginRegistry(serverVersion);
 *   registry.connect(info) / handshake(id, request) / setTools(id, tools) / disconnect(id, now, waitMs)
 *   routeTool(name, registry.active(), registry.awaited(now), now)   -> target | wait | notFound
 */
export { PluginRegistry, type DuplicateToolDiagnostic, type ListDegradedDiagnostic, type HandshakeOutcome, type PluginConnectionInfo, type RegistryEvents } from './registry.js';
export { routeTool, type RouteDecision } from './routing.js';
export { declaredRole, resolveRole, isGuardedVersion } from './roles.js';
export { evaluateHandshake } from './handshake.js';
export { enabledPrompts, enabledResources, enabledTemplates, type AwaitedPlugin, type PluginCatalogue, type PluginRecord } from './records.js';
