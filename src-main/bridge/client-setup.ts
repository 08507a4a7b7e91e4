/**
 * Copyable setup for the MCP clients operators use, each in the format that client documents: one
 * snippet per client, file or command, and transport (stdio through `junction connect`, or streamable
 * HTTP), for one Junction endpoint (unpinned, or one project's `/p/{pin}` route). With auth=token the
 * HTTP snippets carry the bearer header and the stdio ones give `junction connect` the token in its
 * environment (JUNCTION_AUTH, JUNCTION_TOKEN), so the relay authenticates too.
 *
 * Formats, as their publishers document them:
 * - Claude Desktop (https://modelcontextprotocol.io/quickstart/user), claude_desktop_config.json:
 *   `mcpServers` → { command, args, env }; the file holds local (stdio) servers only (remote ones are
 *   added under Settings > Connectors, not through it), so Claude Desktop reaches Junction over stdio.
 * - Claude Code (https://code.claude.com/docs/en/mcp): `claude mcp add [options] <name> -- <command>
 *   [args...]`, `claude mcp add --transport http <name> <url> --header "Name: value"`; options before the
 *   name, `--` before the command; a project's `.mcp.json` has `mcpServers` → { type: "stdio", command,
 *   args, env } or { type: "http", url, headers }.
 * - VS Code (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration): `.vscode/mcp.json`
 *   has a top-level `servers` (not `mcpServers`), each with a required `type`: "stdio" with command,
 *   args, env, or "http" with url, headers.
 * - Cursor (https://cursor.com/docs/context/mcp): `~/.cursor/mcp.json` (or a project's
 *   `.cursor/mcp.json`) has `mcpServers` → { command, args, env } or { url, headers }.
 * - MCP Inspector (https://github.com/modelcontextprotocol/inspector, docs/mcp-server-configuration.md
 *   and clients/cli/README.md): `npx @modelcontextprotocol/inspector --cli <url> --transport http
 *   --header "Name: value" --method tools/list`, or `--config <file> --server <name>` with a file of
 *   `mcpServers` → { type: "stdio", command, args, env } or { type: "http", url, headers }. Its CLI
 *   cannot pass an argument starting with a dash to an ad-hoc stdio command, so stdio goes through the
 *   file.
 */
import type { ClientSnippetView } from '../contracts/index.js';

/** How an agent's launcher runs `junction connect`. */
export interface ConnectCommand {
  command: string;
  /** Everything before `connect`: the CLI script (and a loader when Junction runs from source). */
  args: readonly string[];
}

export interface ClientSetupTarget {
  /** The server's name in the client (a JSON key and a CLI argument). */
  name: string;
  /** Where Junction listens, as agents on this machine reach it. */
  host: string;
  port: number;
  mcpUrl: string;
  /** Direct HTTP API base, for the curl line. */
  apiUrl: string;
  /** Agents' bearer token when auth=token. */
  token?: string | undefined;
  /** The project pin the stdio relay and the HTTP route are bound to. */
  pin?: string | undefined;
  cli: ConnectCommand;
}

const INSPECTOR = 'npx @modelcontextprotocol/inspector --cli';
const INSPECTOR_FILE = 'junction-inspector.json';
const DEFAULT_HOST = '127.0.0.1';

/** A word a POSIX shell reads back unchanged: quoted when it holds anything but plain characters. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const shellLine = (words: readonly string[]) => words.map(shellWord).join(' ');
const json = (value: unknown) => JSON.stringify(value, null, 2);

function stdioServer(target: ClientSetupTarget): { command: string; args: string[]; env?: Record<string, string> } {
  const args = [
    ...target.cli.args,
    'connect',
    '--port',
    String(target.port),
    ...(target.host === DEFAULT_HOST ? [] : ['--host', target.host]),
    ...(target.pin ? [`project-pin=${target.pin}`] : []),
  ];
  return { command: target.cli.command, args, ...(target.token ? { env: { JUNCTION_AUTH: 'token', JUNCTION_TOKEN: target.token } } : {}) };
}

const headersOf = (target: ClientSetupTarget) => (target.token ? { Authorization: `Bearer ${target.token}` } : undefined);

function httpServer(target: ClientSetupTarget, type?: 'http'): { type?: 'http'; url: string; headers?: Record<string, string> } {
  const headers = headersOf(target);
  return { ...(type ? { type } : {}), url: target.mcpUrl, ...(headers ? { headers } : {}) };
}

export function clientSnippets(target: ClientSetupTarget): ClientSnippetView[] {
  const { name } = target;
  const stdio = stdioServer(target);
  const http = httpServer(target, 'http');
  const headerFlags = (headersOf(target) ? [`Authorization: Bearer ${target.token}`] : []).flatMap((h) => ['--header', h]);
  const envFlags = Object.entries(stdio.env ?? {}).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  const claudeCode = 'https://code.claude.com/docs/en/mcp';
  const vscode = 'https://code.visualstudio.com/docs/copilot/reference/mcp-configuration';
  const cursor = 'https://cursor.com/docs/context/mcp';
  const inspector = 'https://github.com/modelcontextprotocol/inspector/blob/main/docs/mcp-server-configuration.md';
  return [
    {
      client: 'Claude Desktop (stdio)',
      format: 'json',
      transport: 'stdio',
      target: 'claude_desktop_config.json',
      docs: 'https://modelcontextprotocol.io/quickstart/user',
      text: json({ mcpServers: { [name]: stdio } }),
    },
    {
      client: 'Claude Code: command (stdio)',
      format: 'shell',
      transport: 'stdio',
      target: 'a terminal',
      docs: claudeCode,
      text: shellLine(['claude', 'mcp', 'add', '--transport', 'stdio', ...envFlags, name, '--', stdio.command, ...stdio.args]),
    },
    {
      client: 'Claude Code: command (streamable HTTP)',
      format: 'shell',
      transport: 'streamable-http',
      target: 'a terminal',
      docs: claudeCode,
      text: shellLine(['claude', 'mcp', 'add', '--transport', 'http', name, target.mcpUrl, ...headerFlags]),
    },
    { client: 'Claude Code: .mcp.json (stdio)', format: 'json', transport: 'stdio', target: '.mcp.json', docs: claudeCode, text: json({ mcpServers: { [name]: { type: 'stdio', ...stdio } } }) },
    { client: 'Claude Code: .mcp.json (streamable HTTP)', format: 'json', transport: 'streamable-http', target: '.mcp.json', docs: claudeCode, text: json({ mcpServers: { [name]: http } }) },
    { client: 'VS Code (stdio)', format: 'json', transport: 'stdio', target: '.vscode/mcp.json', docs: vscode, text: json({ servers: { [name]: { type: 'stdio', ...stdio } } }) },
    { client: 'VS Code (streamable HTTP)', format: 'json', transport: 'streamable-http', target: '.vscode/mcp.json', docs: vscode, text: json({ servers: { [name]: http } }) },
    { client: 'Cursor (stdio)', format: 'json', transport: 'stdio', target: '~/.cursor/mcp.json', docs: cursor, text: json({ mcpServers: { [name]: stdio } }) },
    { client: 'Cursor (streamable HTTP)', format: 'json', transport: 'streamable-http', target: '~/.cursor/mcp.json', docs: cursor, text: json({ mcpServers: { [name]: httpServer(target) } }) },
    {
      client: 'MCP Inspector: command (streamable HTTP)',
      format: 'shell',
      transport: 'streamable-http',
      target: 'a terminal (Node 22.19 or newer)',
      docs: inspector,
      text: shellLine([...INSPECTOR.split(' '), target.mcpUrl, '--transport', 'http', ...headerFlags, '--method', 'tools/list']),
    },
    {
      client: 'MCP Inspector: config file',
      format: 'json',
      transport: 'stdio',
      target: INSPECTOR_FILE,
      docs: inspector,
      text: json({ mcpServers: { [name]: { type: 'stdio', ...stdio }, [`${name}-http`]: http } }),
    },
    {
      client: 'MCP Inspector: command with the config file (stdio)',
      format: 'shell',
      transport: 'stdio',
      target: `a terminal, beside ${INSPECTOR_FILE} (Node 22.19 or newer)`,
      docs: inspector,
      text: shellLine([...INSPECTOR.split(' '), '--config', INSPECTOR_FILE, '--server', name, '--method', 'tools/list']),
    },
    {
      client: 'Shell: direct HTTP',
      format: 'shell',
      transport: 'http-api',
      target: 'a terminal',
      text: shellLine(['curl', '-s', '-X', 'POST', `${target.apiUrl}/server-status`, '-H', 'content-type: application/json', ...(target.token ? ['-H', `Authorization: Bearer ${target.token}`] : []), '-d', '{}']),
    },
  ];
}
