/**
 * The WebSocket side of an HTTP route (the hub, the console socket), made on the first upgrade it
 * accepts. The `ws` package and what it loads (its frame sender and receiver, permessage-deflate over
 * zlib) hold several MB of resident memory; a Junction that no plugin and no console has connected to
 * yet does not pay for them. The first upgrade waits for the module once, a few milliseconds.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerOptions, WebSocket, WebSocketServer } from 'ws';

export class WebSocketUpgrades {
  private server: Promise<WebSocketServer> | undefined;

  /** `options` without `noServer`: the route's HTTP server hands upgrades over itself. */
  constructor(private readonly options: Omit<ServerOptions, 'noServer' | 'server' | 'port'>) {}

  /**
   * Completes the WebSocket handshake on a socket whose upgrade the route accepted, then hands the
   * socket over. A socket that closed while the module loaded is left alone; one that cannot be served
   * (the module failed to load: a broken installation) is closed, never left hanging.
   */
  async accept(req: IncomingMessage, socket: Duplex, head: Buffer, accepted: (ws: WebSocket) => void): Promise<void> {
    let server: WebSocketServer;
    try {
      server = await this.started();
    } catch {
      socket.destroy();
      return;
    }
    if (socket.destroyed) return;
    server.handleUpgrade(req, socket, head, accepted);
  }

  /** Stops accepting; the route closes the sockets it accepted itself. */
  async close(): Promise<void> {
    const server = await this.server?.catch(() => undefined);
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private started(): Promise<WebSocketServer> {
    this.server ??= import('ws').then(({ WebSocketServer }) => new WebSocketServer({ ...this.options, noServer: true }));
    return this.server;
  }
}
