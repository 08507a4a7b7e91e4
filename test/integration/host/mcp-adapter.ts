/**
 * Test-only: exposes a ToolSource through a real MCP server over the SDK's in-memory transport,
 * so host tools are exercised by the real MCP Client (schemas, structured output validation, progress).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSource } from '../../../src-main/shared/index.js';

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

export async function connect(source: ToolSource): Promise<Connected> {
  const server = new Server({ name: 'host-test', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...source.listTools()] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    const outcome = await source.callTool(request.params.name, request.params.arguments ?? {}, {
      callId: randomUUID(),
      agent: 'test',
      transport: 'mcp-http',
      signal: extra.signal,
      ...(token !== undefined
        ? { progress: (update) => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...update } }) }
        : {}),
    });
    return outcome.result;
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'host-test-client', version: '0.0.0' });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}
