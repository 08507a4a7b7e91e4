/**
 * npm run bench:bridge — round-trip latency (p50/p99) and throughput (1, 16, 64 concurrent callers) of
 *   (a) a raw `ws` echo on loopback: the physical floor,
 *   (b) a direct @microsoft/signalr invoke against our hub,
 *   (c) an MCP tool call through Junction to an SDK plugin,
 * measured in one run, with the ratios (c)/(a) and (c)/(b) and the process RSS.
 * Targets: (c)/(b) ≤ 1.5 at p50; ≥ 5,000 calls/s at 64 concurrent; RSS < 150 MB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { createPlugin } from '../plugins/sdk/src/index.js';
import { parseArgv, resolveConfig } from '../src-main/app/config/index.js';
import { listen } from '../src-main/app/http/server.js';
import { startJunction } from '../src-main/app/junction.js';
import { createHubServer } from '../src-main/bridge/signalr/index.js';
import { silentLogger } from '../src-main/shared/log.js';
import { fmt, measureLatency, measureThroughput, type LatencyStats } from './support/stats.js';

const LATENCY_CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const THROUGHPUT_MS = Number(process.env.BENCH_SECONDS ?? 3) * 1000;
const CONCURRENCY = [1, 16, 64];
const payload = { text: 'x'.repeat(64) };

interface Row {
  name: string;
  latency: LatencyStats;
  throughput: number[];
}

async function rawWs(): Promise<{ op: () => Promise<unknown>; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (socket) => socket.on('message', (data) => socket.send(data)));
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  // One socket per concurrent caller, as the other two paths multiplex over one connection each
  // would not be comparable: the floor is one request in flight per socket.
  const sockets: WebSocket[] = [];
  const idle: WebSocket[] = [];
  const open = async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    await new Promise((r) => ws.once('open', r));
    sockets.push(ws);
    return ws;
  };
  const text = JSON.stringify(payload);
  return {
    async op() {
      const ws = idle.pop() ?? (await open());
      await new Promise<void>((resolve) => {
        ws.once('message', () => resolve());
        ws.send(text);
      });
      idle.push(ws);
    },
    async close() {
      for (const ws of sockets) ws.close();
      await new Promise((r) => wss.close(r));
    },
  };
}

async function directSignalR(): Promise<{ op: () => Promise<unknown>; close: () => Promise<void> }> {
  const hub = createHubServer();
  hub.on('Echo', (_connection, value) => value);
  const server = createServer((req, res) => {
    if (!hub.handleRequest(req, res)) res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket, head) => {
    if (!hub.handleUpgrade(req, socket, head)) socket.destroy();
  });
  const { port } = await listen(server, 0, '127.0.0.1');
  const connection = new HubConnectionBuilder()
    .withUrl(`http://127.0.0.1:${port}/hub/mcp-server`, { skipNegotiation: true, transport: HttpTransportType.WebSockets })
    .configureLogging(LogLevel.None)
    .build();
  await connection.start();
  return {
    op: () => connection.invoke('Echo', payload),
    async close() {
      await connection.stop();
      await hub.close();
      server.close();
    },
  };
}

async function throughJunction(): Promise<{ op: () => Promise<unknown>; close: () => Promise<void> }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-bench-'));
  const { parsed } = parseArgv(['port=0', `state-dir=${stateDir}`, 'console=false', 'log-level=error']);
  const junction = await startJunction({ config: resolveConfig([parsed]), logger: silentLogger });
  const plugin = createPlugin({ name: 'bench', version: '1.0.0', role: 'editor', endpoint: `${junction.baseUrl}/hub/mcp-server`, skipNegotiation: true });
  plugin.tool({ name: 'echo', description: 'Echoes its text.', input: z.object({ text: z.string() }), handler: (args) => args });
  await plugin.connect();
  const client = new Client({ name: 'bench-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`)));
  for (let i = 0; i < 200; i++) {
    const { tools } = await client.listTools();
    if (tools.some((t) => t.name === 'echo')) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    async op() {
      const result = await client.callTool({ name: 'echo', arguments: payload });
      if (result.isError) throw new Error(`echo failed: ${JSON.stringify(result.content)}`);
    },
    async close() {
      await client.close();
      await plugin.disconnect();
      await junction.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

async function bench(name: string, setup: () => Promise<{ op: () => Promise<unknown>; close: () => Promise<void> }>): Promise<Row> {
  const subject = await setup();
  try {
    const latency = await measureLatency(subject.op, LATENCY_CALLS);
    const throughput: number[] = [];
    for (const c of CONCURRENCY) throughput.push(await measureThroughput(subject.op, c, THROUGHPUT_MS));
    return { name, latency, throughput };
  } finally {
    await subject.close();
  }
}

if (process.env.BENCH_ONLY === 'c') {
  // For profiling the Junction path alone (node --cpu-prof); prints its row only.
  const row = await bench('(c) MCP tools/call → Junction → SDK plugin', throughJunction);
  console.log(`${row.name}: p50 ${fmt(row.latency.p50)} ms, p99 ${fmt(row.latency.p99)} ms, calls/s ${row.throughput.map((t) => fmt(t, 0)).join(' / ')}`);
  process.exit(0);
}
const rows = [await bench('(a) raw ws echo', rawWs), await bench('(b) signalr invoke → our hub', directSignalR), await bench('(c) MCP tools/call → Junction → SDK plugin', throughJunction)];
const rssMb = process.memoryUsage().rss / 1024 / 1024;

console.log(`\nbridge benchmark: ${LATENCY_CALLS} sequential calls for latency, ${THROUGHPUT_MS / 1000}s per concurrency level\n`);
console.log(['path'.padEnd(44), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), ...CONCURRENCY.map((c) => `${c}× calls/s`.padStart(14))].join(' '));
for (const row of rows) {
  console.log([row.name.padEnd(44), fmt(row.latency.p50).padStart(8), fmt(row.latency.p99).padStart(8), ...row.throughput.map((t) => fmt(t, 0).padStart(14))].join(' '));
}
const [a, b, c] = rows as [Row, Row, Row];
const ratio = (x: number, y: number) => fmt(x / y, 2);
console.log(`\n(c)/(a) p50 ${ratio(c.latency.p50, a.latency.p50)}  p99 ${ratio(c.latency.p99, a.latency.p99)}`);
console.log(`(c)/(b) p50 ${ratio(c.latency.p50, b.latency.p50)}  p99 ${ratio(c.latency.p99, b.latency.p99)}   target p50 ≤ 1.5: ${c.latency.p50 / b.latency.p50 <= 1.5 ? 'met' : 'NOT met'}`);
console.log(`(c) at 64 concurrent: ${fmt(c.throughput[2]!, 0)} calls/s   target ≥ 5000: ${c.throughput[2]! >= 5000 ? 'met' : 'NOT met'}`);
console.log(`RSS (benchmark process: clients, plugin and Junction together): ${fmt(rssMb, 1)} MB   target < 150: ${rssMb < 150 ? 'met' : 'NOT met'}`);
