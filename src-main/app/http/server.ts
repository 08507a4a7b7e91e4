/**
 * One node:http server for everything on the port (hub, /mcp, /api, console). Each room contributes a
 * handler that claims the requests it owns; the first to claim wins and nothing else sees the request.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { JunctionError, type StructuredError } from '../../contracts/index.js';
import { refuseUpgrade, requestPath, sendError, type RouteHandler } from '../../shared/index.js';

/** Runs before routing; a refusal is answered with its structured error, at the status its code's kind has. */
export type RequestGate = (req: IncomingMessage) => Promise<{ ok: true } | { ok: false; error: StructuredError }>;

export function createHttpServer(routes: readonly RouteHandler[], gate?: RequestGate): Server {
  const server = createServer((req, res) => {
    const route = () => {
      for (const r of routes) if (r.handleRequest?.(req, res)) return;
      sendError(res, { code: 'ToolNotFound', message: `Nothing is served at ${req.method} ${requestPath(req)}.` });
    };
    if (!gate) return route();
    gate(req).then(
      (verdict) => (verdict.ok ? route() : sendError(res, verdict.error)),
      (error: unknown) => sendError(res, { code: 'InternalError', message: (error as Error).message }),
    );
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const route = () => {
      for (const r of routes) if (r.handleUpgrade?.(req, socket, head)) return;
      refuseUpgrade(socket, { code: 'ToolNotFound', message: 'No WebSocket endpoint at this path.' });
    };
    if (!gate) return route();
    gate(req).then(
      (verdict) => (verdict.ok ? route() : refuseUpgrade(socket, verdict.error)),
      () => socket.destroy(),
    );
  });
  // Streamed MCP responses and long tool calls must not be cut by Node's default request timeout.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  // Node's 5 s default closes an idle keep-alive socket as soon as the event loop comes back from a long
  // synchronous step (a type check under load), before it reads a request the client already sent on that
  // socket: the agent sees ECONNRESET. A minute of grace keeps such requests.
  server.keepAliveTimeout = 65_000;
  return server;
}

export function listen(server: Server, port: number, host: string): Promise<{ port: number; host: string }> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      if (!address || typeof address === 'string') return reject(new Error('server has no TCP address'));
      resolve({ port: address.port, host });
    });
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Stops listening (the port is free at once) and closes every plain HTTP connection. Upgraded sockets
 * (the plugin hub's, the console's) belong to the parts that accepted them, which are disposed after
 * this one and close them; waiting here for the server's last connection would wait on them.
 */
function stopServing(server: Server): void {
  server.close();
  server.closeAllConnections();
}

export interface MountedHttp {
  readonly server: Server;
  /** The port bound (the one asked for, or the one the system picked for port 0). */
  readonly port: number;
  dispose(): void;
}

/** The one server on its port, listening; a port in use is a configuration problem the person starting Junction can fix. */
export async function mountHttp(options: { routes: readonly RouteHandler[]; gate: RequestGate; port: number; host: string }): Promise<MountedHttp> {
  const server = createHttpServer(options.routes, options.gate);
  try {
    const { port } = await listen(server, options.port, options.host);
    return { server, port, dispose: () => stopServing(server) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new JunctionError(
      'ConfigInvalid',
      code === 'EADDRINUSE' ? `port: ${options.port} on ${options.host} is already in use; pass --port N (0 picks a free one).` : `cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
