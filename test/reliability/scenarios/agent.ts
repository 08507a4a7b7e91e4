/** A real MCP client over streamable HTTP for a scenario step, closed when the step ends. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function openAgent(baseUrl: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'reliability-agent', version: '1.0.0' });
  const requestInit = token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), requestInit));
  return client;
}

export async function withAgent<T>(baseUrl: string, run: (agent: Client) => Promise<T>, token?: string): Promise<T> {
  const agent = await openAgent(baseUrl, token);
  try {
    return await run(agent);
  } finally {
    await agent.close().catch(() => undefined);
  }
}

/**
 * Ends the agent's session on the server (HTTP DELETE), then closes it: `close()` alone only drops the
 * client's side, and the server keeps the session until its idle timeout.
 */
export async function endAgent(agent: Client): Promise<void> {
  const transport = agent.transport;
  if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
  await agent.close();
}
