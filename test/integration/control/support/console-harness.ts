/** Starts a real loopback HTTP server with a hub and the console adapter, as the composition root would. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConsoleServer, type ConsoleServer, type FrameSenderLimits } from '../../../../src-main/control/index.js';
import { createWorld, type World } from './world.js';

export interface ConsoleHarness {
  world: World;
  console: ConsoleServer;
  server: Server;
  origin: string;
  token: string;
  close(): Promise<void>;
}

export interface ConsoleHarnessOptions {
  staticDir: string;
  token?: string;
  limits?: Partial<FrameSenderLimits>;
  world?: World;
  /**
   * Publish the header's metrics once a second, as the composition root does (default). Off for a test
   * that counts every event up to a sequence number it read: a tick can land after it read the number.
   */
  metricsTicks?: boolean;
}

export async function startConsole(options: ConsoleHarnessOptions): Promise<ConsoleHarness> {
  const world = options.world ?? createWorld();
  const token = options.token ?? 'test-token-0123456789abcdef';
  const consoleServer = createConsoleServer({ hub: world.hub, token, staticDir: options.staticDir, limits: options.limits });
  const server = createServer((req, res) => {
    if (consoleServer.handleRequest(req, res)) return;
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not a console route');
  });
  server.on('upgrade', (req, socket, head) => {
    if (!consoleServer.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const metricsTimer = options.metricsTicks === false ? undefined : setInterval(() => world.hub.publishMetrics(), 1000);
  const { port } = server.address() as AddressInfo;
  return {
    world,
    console: consoleServer,
    server,
    origin: `http://127.0.0.1:${port}`,
    token,
    async close() {
      clearInterval(metricsTimer);
      await consoleServer.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
