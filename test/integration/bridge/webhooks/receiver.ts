/** A real HTTP webhook receiver on an ephemeral loopback port, for the webhook and auth tests. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

export type ReceiverHandler = (request: ReceivedRequest, res: ServerResponse) => void;

export interface Receiver {
  url: (path?: string) => string;
  received: ReceivedRequest[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startReceiver(handler: ReceiverHandler): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    waitFor: (count) => (received.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening on it (bound, then released). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook`;
}

export interface LogEntry {
  level: 'info' | 'warn';
  message: string;
  fields: Record<string, unknown> | undefined;
}

export function recordingLogger() {
  const entries: LogEntry[] = [];
  return {
    entries,
    info: (message: string, fields?: Record<string, unknown>) => void entries.push({ level: 'info', message, fields }),
    warn: (message: string, fields?: Record<string, unknown>) => void entries.push({ level: 'warn', message, fields }),
  };
}
