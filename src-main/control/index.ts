/** The control room's public door: the hub the composition root feeds, and its browser transport. */
export { createControlHub, toolEntryOf, type ControlHub, type ControlHubOptions, type ControlServing, type ControlProviders, type ControlCommandHandlers, type HistoryProvider, type PluginCatalogueView, type SnapshotFrame, type ToolEntryWithoutStats } from './hub.js';
export { createConsoleServer, AUDIT_EXPORT_PATH, CONTROL_SOCKET_PATH, type AuditExportFilter, type AuditExportRequest, type ConsoleServer, type ConsoleServerOptions } from './console-server.js';
export { dispatchCommand, unknownCommandError } from './commands.js';
export { DEFAULT_CALL_LOG_LIMITS, type CallLogLimits } from './call-log.js';
export { CallMetrics, METRICS_WINDOW_SECONDS } from './metrics.js';
export type { FrameSenderLimits, FrameSenderStats } from './frame-sender.js';
export { snapshotParts } from './snapshot-parts.js';
export { contentSecurityPolicy, contentTypeFor, resolveStaticFile } from './static-files.js';
export { mountConsole, mountControl, type ConsoleMountContext, type MountedConsole, type MountedControl } from './mount.js';
