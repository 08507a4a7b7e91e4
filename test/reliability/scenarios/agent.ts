/** A real MCP client over streamable HTTP for a scenario step, closed when the step ends. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function openAgent(baseUrl: string): Promise<Client> {
  const client = new Client({ name: 'reliability-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
  return client;
}

export async function withAgent<T>(baseUrl: string, run: (agent: Client) => Promise<T>): Promise<T> {
  const agent = await openAgent(baseUrl);
  try {
    return await run(agent);
  } finally {
    await agent.close().catch(() => undefined);
  }
}
