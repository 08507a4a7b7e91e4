/**
 * Liveness and readiness, answered apart: `/healthz` says the process serves HTTP (the stdio relay
 * probes it to find a running instance); `/readyz` says start-up finished, i.e. recovery ran and every
 * configured workspace is open, so a supervisor or a script does not send work to a half-started server.
 */
import { httpStatusOf, next, type StructuredError } from '../../contracts/index.js';
import { requestPath, type RouteHandler } from '../../shared/index.js';

export interface StartupProgress {
  /** Configured workspaces opened so far, of `total`. */
  workspacesOpened: number;
  workspacesTotal: number;
  ready: boolean;
}

export interface HealthOptions {
  version: string;
  bridgeRunning: () => boolean;
  startup: () => StartupProgress;
}

function reply(res: Parameters<NonNullable<RouteHandler['handleRequest']>>[1], status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

export function healthRoutes(options: HealthOptions): RouteHandler {
  return {
    handleRequest(req, res) {
      const path = requestPath(req);
      if (path === '/healthz') {
        reply(res, 200, { name: 'junction', version: options.version, pid: process.pid, bridge: options.bridgeRunning() });
        return true;
      }
      if (path !== '/readyz') return false;
      const startup = options.startup();
      const workspaces = { opened: startup.workspacesOpened, total: startup.workspacesTotal };
      if (startup.ready) {
        reply(res, 200, { ready: true, workspaces });
      } else {
        const error: StructuredError = {
          code: 'Starting',
          message: `Junction is starting: ${workspaces.opened} of ${workspaces.total} configured workspaces open; retry shortly.`,
          next: next('retryLater'),
        };
        reply(res, httpStatusOf(error), { ready: false, workspaces, error });
      }
      return true;
    },
  };
}
