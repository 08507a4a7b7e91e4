/**
 * Test-only MCP adapter: serves one ToolSource through the real SDK Server and connects a real SDK Client
 * over a linked in-memory transport pair.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSource } from '../../../../../src-main/shared/tool-source.js';

export interface McpHarness {
  client: Client;
  close(): Promise<void>;
}

export async function connectToolSource(source: ToolSource): Promise<McpHarness> {
  const server = new Server({ name: 'junction-test', version: '0.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...source.listTools()] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const outcome = await source.callTool(request.params.name, request.params.arguments ?? {}, {
      callId: randomUUID(),
      agent: 'test',
      transport: 'mcp-http',
      signal: extra.signal,
    });
    return outcome.result;
  });
  const unsubscribe = source.onToolsChanged(() => void server.sendToolListChanged().catch(() => undefined));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'junction-test-client', version: '0.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    async close() {
      unsubscribe();
      await client.close();
      await server.close();
    },
  };
}
