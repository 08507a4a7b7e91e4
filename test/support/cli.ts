import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PROJECT_ROOT } from '../../src-main/app/paths.js';

/** Runs the CLI from source, as a spawned agent launcher would. */
export const CLI_SOURCE_FOR_TESTS = ['--import', 'tsx', join(PROJECT_ROOT, 'src-main', 'app', 'cli.ts')];

/** This process's environment with a settings directory of its own, so a user's settings.json never leaks in. */
export function isolatedEnv(): Record<string, string> {
  const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { ...env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'junction-cfg-')) };
}

/** An MCP SDK client connected over the stdio of `junction <args>` run from source, as an agent launcher spawns it. */
export async function stdioAgent(args: readonly string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...CLI_SOURCE_FOR_TESTS, ...args], env: isolatedEnv(), stderr: 'pipe' });
  const agent = new Client({ name: 'stdio-agent', version: '1.0.0' });
  await agent.connect(transport);
  return agent;
}
