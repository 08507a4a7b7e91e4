/** A real node:http server on an ephemeral loopback port that routes to a hub, plus client helpers. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection as ClientConnection } from '@microsoft/signalr';
import WebSocket from 'ws';
import { createHubServer, type HubServer, type HubServerOptions } from '../../../../src-main/bridge/signalr/index.js';

export const RS = '\u001e';

export interface Harness {
  hub: HubServer;
  http: Server;
  port: number;
  url: string;
  stop(): Promise<void>;
}

export async function startHub(options: HubServerOptions = {}, port = 0): Promise<Harness> {
  const hub = createHubServer(options);
  const http = createServer((req, res) => {
    if (!hub.handleRequest(req, res)) {
      res.writeHead(404);
      res.end();
    }
  });
  http.on('upgrade', (req, socket, head) => {
    if (!hub.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const actual = (http.address() as AddressInfo).port;
  const path = options.path ?? '/hub/mcp-server';
  return {
    hub,
    http,
    port: actual,
    url: `http://127.0.0.1:${actual}${path}`,
    async stop() {
      await hub.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

export interface ClientOptions {
  skipNegotiation?: boolean;
  reconnectDelaysMs?: number[];
  keepAliveIntervalMs?: number;
  serverTimeoutMs?: number;
  query?: string;
  headers?: Record<string, string>;
}

export function buildClient(url: string, options: ClientOptions = {}): ClientConnection {
  const target = options.query ? `${url}?${options.query}` : url;
  let builder = new HubConnectionBuilder()
    .withUrl(target, {
      transport: HttpTransportType.WebSockets,
      ...(options.skipNegotiation ? { skipNegotiation: true } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    })
    .configureLogging(LogLevel.None);
  if (options.reconnectDelaysMs) builder = builder.withAutomaticReconnect(options.reconnectDelaysMs);
  const connection = builder.build();
  if (options.keepAliveIntervalMs !== undefined) connection.keepAliveIntervalInMilliseconds = options.keepAliveIntervalMs;
  if (options.serverTimeoutMs !== undefined) connection.serverTimeoutInMilliseconds = options.serverTimeoutMs;
  return connection;
}

/** A raw WebSocket that speaks records by hand, for frames the real client would never send. */
export class RawClient {
  private readonly records: string[] = [];
  private readonly waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number }>;
  private buffer = '';
  private ended = false;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      this.buffer += data.toString('utf8');
      const parts = this.buffer.split(RS);
      this.buffer = parts.pop() ?? '';
      this.records.push(...parts);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code) => {
        this.ended = true;
        for (const wake of this.waiters.splice(0)) wake();
        resolve({ code });
      }),
    );
  }

  static async open(wsUrl: string): Promise<RawClient> {
    const ws = new WebSocket(wsUrl);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RawClient(ws);
  }

  send(text: string): void {
    this.ws.send(text);
  }

  /** Next record parsed as JSON, skipping pings; throws once the socket closed with nothing left. */
  async next(): Promise<Record<string, unknown>> {
    for (;;) {
      while (this.records.length > 0) {
        const record = JSON.parse(this.records.shift() as string) as Record<string, unknown>;
        if (record.type !== 6) return record;
      }
      if (this.ended) throw new Error('socket closed');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async handshake(): Promise<Record<string, unknown>> {
    this.send(JSON.stringify({ protocol: 'json', version: 1 }) + RS);
    return this.next();
  }

  close(): void {
    this.ws.terminate();
  }
}

export function wsUrl(url: string): string {
  return url.replace(/^http/, 'ws');
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves when the emitter-style subscription fires once. */
export function once<T>(subscribe: (listener: (value: T) => void) => () => void): Promise<T> {
  return new Promise((resolve) => {
    const off = subscribe((value) => {
      off();
      resolve(value);
    });
  });
}
