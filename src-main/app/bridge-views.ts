/** What the console's Bridge view shows: endpoints and the exact snippets operators paste into MCP clients. */
import type { BridgeView } from '../control/api.js';

export function bridgeView(options: { running: boolean; host: string; port: number; cliArgs: string[]; token?: string | undefined }): BridgeView {
  const displayHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const base = `http://${displayHost}:${options.port}`;
  const mcpUrl = `${base}/mcp`;
  const connectArgs = [...options.cliArgs, 'connect', '--port', String(options.port)];
  const headers = options.token ? { Authorization: `Bearer ${options.token}` } : undefined;
  return {
    running: options.running,
    host: options.host,
    port: options.port,
    hubUrl: `${base}/hub/mcp-server`,
    mcpUrl,
    apiUrl: `${base}/api/tools`,
    transports: ['streamable-http', 'stdio'],
    snippets: [
      {
        client: 'Claude Desktop (stdio)',
        format: 'json',
        text: JSON.stringify({ mcpServers: { junction: { command: 'node', args: connectArgs } } }, null, 2),
      },
      {
        client: 'Any MCP client (streamable HTTP)',
        format: 'json',
        text: JSON.stringify({ mcpServers: { junction: { type: 'http', url: mcpUrl, ...(headers ? { headers } : {}) } } }, null, 2),
      },
      {
        client: 'Shell (direct HTTP)',
        format: 'shell',
        text: `curl -s -X POST ${base}/api/tools/server-status -H 'content-type: application/json'${options.token ? ` -H 'Authorization: Bearer ${options.token}'` : ''} -d '{}'`,
      },
    ],
  };
}
