/** Starts a real Junction (every room, one ephemeral loopback port, a temp state directory) for tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseArgv, resolveConfigWithOrigins } from '../../src-main/app/config/index.js';
import { startJunction, type Junction } from '../../src-main/app/junction.js';
import { silentLogger, type Logger } from '../../src-main/shared/log.js';

export { eventually } from './eventually.js';

export interface TestJunction extends Junction {
  connectAgent(options?: { token?: string }): Promise<Client>;
  stop(): Promise<void>;
}

export async function startTestJunction(args: string[] = [], logger: Logger = silentLogger): Promise<TestJunction> {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-state-'));
  // The first occurrence of a key wins, so the caller's settings go before these defaults.
  const { parsed, problems } = parseArgv([...args, 'port=0', `state-dir=${stateDir}`, 'log-level=error']);
  const { config, origins } = resolveConfigWithOrigins([{ values: parsed.values, problems }]);
  const junction = await startJunction({ config, origins, logger });
  const clients: Client[] = [];
  return Object.assign(Object.create(junction) as Junction, junction, {
    async connectAgent(options: { token?: string } = {}) {
      const client = new Client({ name: 'test-agent', version: '1.0.0' });
      const headers = options.token ? { Authorization: `Bearer ${options.token}` } : undefined;
      await client.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`), headers ? { requestInit: { headers } } : undefined));
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await junction.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  });
}
