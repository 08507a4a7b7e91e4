/**
 * Serves tool sources through Junction's real MCP room (catalogue, dispatcher, server factory) and
 * connects a real SDK Client over the SDK's in-memory transport: what an agent sees, minus HTTP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createCatalogue, createDispatcher, createMcpServerFactory } from '../../src-main/mcp/index.js';
import type { ToolSource } from '../../src-main/contracts/tool-source.js';

export interface InMemoryMcp {
  client: Client;
  close(): Promise<void>;
}

export async function connectInMemory(sources: readonly ToolSource[]): Promise<InMemoryMcp> {
  const catalogue = createCatalogue(sources);
  const factory = createMcpServerFactory({ name: 'junction-test', version: '0.0.0', catalogue, dispatcher: createDispatcher(catalogue) });
  const server = await factory.create('mcp-http', () => 'in-memory');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'junction-test-client', version: '0.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      factory.close();
      catalogue.close();
    },
  };
}
