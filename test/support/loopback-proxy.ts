/**
 * A TCP proxy on 127.0.0.1 placed between a plugin and the hub, so tests can stall the network on
 * command: pass bytes through, delay them, blackhole them (sockets stay open, nothing arrives), or
 * drop every open connection as a broken link would. Like a reverse proxy, it presents request heads
 * with the target's Host, since Junction refuses a Host naming another port (DNS-rebinding guard).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type ProxyMode = { kind: 'pass' } | { kind: 'delay'; ms: number } | { kind: 'blackhole' };

export interface LoopbackProxy {
  port: number;
  /** Applies to bytes arriving from now on, in both directions, on open and new connections. */
  setMode(mode: ProxyMode): void;
  /** Destroys every open connection (both legs) without a goodbye; new connections are still accepted. */
  dropAll(): void;
  openConnections(): number;
  /** Every HTTP request head seen so far (request line and headers), in arrival order. */
  requestHeads(): string[];
  close(): Promise<void>;
}

export async function startLoopbackProxy(targetPort: number): Promise<LoopbackProxy> {
  let mode: ProxyMode = { kind: 'pass' };
  const pairs = new Set<[Socket, Socket]>();
  const timers = new Set<NodeJS.Timeout>();
  const heads: string[] = [];

  const requestHead = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//;
  const retarget = (chunk: Buffer): Buffer => {
    if (!requestHead.test(chunk.toString('latin1', 0, 9))) return chunk;
    const text = chunk.toString('latin1');
    heads.push(text.split('\r\n\r\n', 1)[0]!);
    return Buffer.from(text.replace(/^(host:[^\r\n:]+):\d+/im, `$1:${targetPort}`), 'latin1');
  };

  const forward = (from: Socket, to: Socket, rewrite: (chunk: Buffer) => Buffer) => {
    from.on('data', (raw: Buffer) => {
      const chunk = rewrite(raw);
      if (mode.kind === 'blackhole') return;
      if (mode.kind === 'pass') {
        to.write(chunk);
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!to.destroyed) to.write(chunk);
      }, mode.ms);
      timers.add(timer);
    });
  };

  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of pair) {
      socket.on('error', end);
      socket.on('close', end);
    }
    forward(client, upstream, retarget);
    forward(upstream, client, (chunk) => chunk);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const dropAll = () => {
    for (const [a, b] of [...pairs]) {
      a.destroy();
      b.destroy();
    }
    pairs.clear();
  };

  return {
    port: (server.address() as AddressInfo).port,
    setMode(next) {
      mode = next;
    },
    dropAll,
    openConnections: () => pairs.size,
    requestHeads: () => [...heads],
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
