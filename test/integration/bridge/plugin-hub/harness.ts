/** A real bridge on an ephemeral loopback port: HTTP server + SignalR hub + plugin bridge. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createHubServer, type HubServer } from '../../../../src-main/bridge/signalr/index.js';
import { attachPluginHub, type AttachPluginHubOptions, type PluginBridge } from '../../../../src-main/bridge/plugin-hub/index.js';
import type { CallContext } from '../../../../src-main/contracts/tool-source.js';

export interface TestBridge {
  endpoint: string;
  hub: HubServer;
  bridge: PluginBridge;
  close(): Promise<void>;
}

export async function startBridge(options: AttachPluginHubOptions = {}): Promise<TestBridge> {
  const hub = createHubServer();
  const bridge = attachPluginHub(hub, options);
  const server: Server = createServer((req, res) => {
    if (!hub.handleRequest(req, res)) {
      res.statusCode = 404;
      res.end();
    }
  });
  server.on('upgrade', (req, socket, head) => {
    if (!hub.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/hub/mcp-server`,
    hub,
    bridge,
    async close() {
      bridge.dispose();
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function callContext(overrides: Partial<CallContext> = {}): CallContext {
  return { callId: randomUUID(), agent: 'test', transport: 'http-api', signal: new AbortController().signal, ...overrides };
}

/** Resolves when `predicate` holds, checking after every bridge change event and on a short poll. */
export function until(bridge: PluginBridge, predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (predicate()) return resolve();
    const check = () => {
      if (!predicate()) return;
      cleanup();
      resolve();
    };
    const offs = [
      bridge.tools.onToolsChanged(check),
      bridge.events.on('pluginConnected', check),
      bridge.events.on('pluginUpdated', check),
      bridge.events.on('pluginDisconnected', check),
      bridge.content.onPromptsChanged(check),
      bridge.content.onResourcesChanged(check),
    ];
    const poll = setInterval(check, 20);
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    function cleanup() {
      for (const off of offs) off();
      clearInterval(poll);
      clearTimeout(timer);
    }
  });
}

export function toolNames(bridge: PluginBridge): string[] {
  return bridge.tools.listTools().map((t) => t.name).sort();
}
