/** Composes the MCP room over given tool sources on an ephemeral loopback port, for integration tests. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bodyReader } from '../../src-main/app/http/read-body.js';
import { closeServer, createHttpServer, listen } from '../../src-main/app/http/server.js';
import { createCatalogue, createDirectToolApi, createDispatcher, createMcpHttpHandler, createMcpServerFactory, type Admission, type CallObserver } from '../../src-main/mcp/index.js';
import type { ToolSource } from '../../src-main/contracts/tool-source.js';
import type { SessionServerModule } from '../../src-main/mcp/sessions.js';

export interface McpStackOptions {
  maxBodyBytes?: number;
  observers?: CallObserver[];
  admission?: Admission;
  maxSessions?: number;
  idleTimeoutMs?: number;
  /** Replaces the factory's load of the SDK's Server, to hold or fail it. */
  loadSessionServer?: () => Promise<SessionServerModule>;
}

export async function startMcpStack(sources: ToolSource[], options: McpStackOptions = {}) {
  const catalogue = createCatalogue(sources);
  const dispatcher = createDispatcher(catalogue, options.observers ?? [], options.admission);
  const factory = createMcpServerFactory({ name: 'junction-test', version: '0.0.0', catalogue, dispatcher }, options.loadSessionServer);
  const readBody = bodyReader({ maxBytes: options.maxBodyBytes ?? 1_048_576, timeoutMs: 30_000 });
  const mcp = createMcpHttpHandler({ factory, idleTimeoutMs: options.idleTimeoutMs ?? 60_000, maxSessions: options.maxSessions ?? 10, readBody });
  const api = createDirectToolApi({ catalogue, dispatcher, readBody });
  const server = createHttpServer([mcp, api]);
  const { port } = await listen(server, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const clients: Client[] = [];
  return {
    base,
    catalogue,
    factory,
    mcp,
    async connectClient(): Promise<Client> {
      const client = new Client({ name: 'test-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      clients.push(client);
      return client;
    },
    async post(path: string, body: string | undefined, headers: Record<string, string> = {}) {
      const response = await fetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await mcp.close();
      factory.close();
      catalogue.close();
      await closeServer(server);
    },
  };
}
