/**
 * The control room as parts of a running Junction: the hub every other part publishes its events to
 * (mounted first, so they can), with the header's metrics recomputed once a second, and later the
 * browser console on the shared HTTP server.
 */
import type { Writable } from 'node:stream';
import { createConsoleServer, type AuditExportRequest, type ConsoleServer } from './console-server.js';
import { createControlHub, type ControlHub } from './hub.js';

/** How often the console's header metrics are recomputed and published. */
const METRICS_INTERVAL_MS = 1000;

export interface MountedControl {
  control: ControlHub;
  dispose(): void;
}

export function mountControl(context: { version: string; maxCalls: number }): MountedControl {
  const control = createControlHub({ version: context.version, limits: { maxCalls: context.maxCalls } });
  const metricsTimer = setInterval(() => control.publishMetrics(), METRICS_INTERVAL_MS);
  metricsTimer.unref();
  return { control, dispose: () => clearInterval(metricsTimer) };
}

export interface ConsoleMountContext {
  control: ControlHub;
  token: string;
  staticDir: string;
  /** Streams the audit trail for the console's Export; absent when the trail is off. */
  exportAudit?: ((request: AuditExportRequest, out: Writable) => Promise<number>) | undefined;
}

export interface MountedConsole {
  route: ConsoleServer;
  dispose(): Promise<void>;
}

export function mountConsole(context: ConsoleMountContext): MountedConsole {
  const route = createConsoleServer({ hub: context.control, token: context.token, staticDir: context.staticDir, ...(context.exportAudit ? { exportAudit: context.exportAudit } : {}) });
  return { route, dispose: () => route.close() };
}
