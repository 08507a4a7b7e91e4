/**
 * The configuration formats of the MCP clients Junction gives setup for, as their publishers document
 * them, and what each snippet names once read that way: the stdio command a client spawns, or the URL
 * and headers it sends. JSON files are checked against a JSON Schema of the client's format; commands
 * are split into shell words and read with the grammar of the CLI that takes them.
 *
 * - Claude Desktop: https://modelcontextprotocol.io/quickstart/user (claude_desktop_config.json, stdio only)
 * - Claude Code: https://code.claude.com/docs/en/mcp (`claude mcp add`, .mcp.json)
 * - VS Code: https://code.visualstudio.com/docs/copilot/reference/mcp-configuration (.vscode/mcp.json)
 * - Cursor: https://cursor.com/docs/context/mcp (~/.cursor/mcp.json)
 * - MCP Inspector: https://github.com/modelcontextprotocol/inspector, docs/mcp-server-configuration.md and
 *   clients/cli/README.md (`--cli`, `--config`/`--server`, the file format)
 */
import { Ajv, type JSONSchemaType } from 'ajv';

export type Launch = { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> } | { kind: 'http'; url: string; headers: Record<string, string> };

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const stdioFields = { command: { type: 'string', minLength: 1 }, args: { type: 'array', items: { type: 'string' } }, env: stringMap } as const;
const httpFields = { url: { type: 'string', pattern: '^https?://' }, headers: stringMap } as const;
/** A key every one of these clients takes as a server name. */
const serverName = '^[a-zA-Z][a-zA-Z0-9_-]*$';

function serversOf(key: 'mcpServers' | 'servers', server: object, extraTop: Record<string, object> = {}): object {
  return {
    type: 'object',
    required: [key],
    additionalProperties: false,
    properties: { [key]: { type: 'object', minProperties: 1, propertyNames: { pattern: serverName }, additionalProperties: server }, ...extraTop },
  };
}

/** JSON Schemas of each client's file, as strict as its documentation is about the fields used here. */
export const CLIENT_FILE_SCHEMAS = {
  // Only local servers: command, args, env.
  'claude_desktop_config.json': serversOf('mcpServers', { type: 'object', required: ['command'], additionalProperties: false, properties: stdioFields }),
  // `type` is optional for stdio (its default) and required for http/sse.
  '.mcp.json': serversOf('mcpServers', {
    oneOf: [
      { type: 'object', required: ['command'], additionalProperties: false, properties: { type: { const: 'stdio' }, ...stdioFields } },
      { type: 'object', required: ['type', 'url'], additionalProperties: false, properties: { type: { enum: ['http', 'sse'] }, ...httpFields } },
    ],
  }),
  // A top-level `servers` (not `mcpServers`) and an optional `inputs`; `type` is required.
  '.vscode/mcp.json': serversOf(
    'servers',
    {
      oneOf: [
        { type: 'object', required: ['type', 'command'], additionalProperties: false, properties: { type: { const: 'stdio' }, ...stdioFields, envFile: { type: 'string' } } },
        { type: 'object', required: ['type', 'url'], additionalProperties: false, properties: { type: { enum: ['http', 'sse'] }, ...httpFields } },
      ],
    },
    { inputs: { type: 'array' } },
  ),
  // command/args/env, or url/headers; no `type`.
  '~/.cursor/mcp.json': serversOf('mcpServers', {
    oneOf: [
      { type: 'object', required: ['command'], additionalProperties: false, properties: stdioFields },
      { type: 'object', required: ['url'], additionalProperties: false, properties: httpFields },
    ],
  }),
  'junction-inspector.json': serversOf('mcpServers', {
    oneOf: [
      { type: 'object', required: ['type', 'command'], additionalProperties: false, properties: { type: { const: 'stdio' }, ...stdioFields, cwd: { type: 'string' } } },
      { type: 'object', required: ['type', 'url'], additionalProperties: false, properties: { type: { enum: ['http', 'sse'] }, ...httpFields } },
    ],
  }),
} as const;

export type ClientFile = keyof typeof CLIENT_FILE_SCHEMAS;

const ajv = new Ajv({ allErrors: true, strict: true });

interface ServerEntry {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

/** Checks `text` against the client file's schema; returns its servers by name. */
export function readClientFile(file: ClientFile, text: string): Record<string, ServerEntry> {
  const parsed: unknown = JSON.parse(text);
  const validate = ajv.compile(CLIENT_FILE_SCHEMAS[file] as unknown as JSONSchemaType<unknown>);
  if (!validate(parsed)) throw new Error(`not a valid ${file}: ${ajv.errorsText(validate.errors)}\n${text}`);
  const top = parsed as { mcpServers?: Record<string, ServerEntry>; servers?: Record<string, ServerEntry> };
  return (file === '.vscode/mcp.json' ? top.servers : top.mcpServers) ?? {};
}

export function launchOf(entry: ServerEntry): Launch {
  if (entry.url !== undefined) return { kind: 'http', url: entry.url, headers: entry.headers ?? {} };
  return { kind: 'stdio', command: entry.command ?? '', args: entry.args ?? [], env: entry.env ?? {} };
}

/** POSIX shell word splitting with single quotes, double quotes and backslashes (no expansion: none is used). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated single quote in ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && '"\\$`'.includes(line[i + 1] ?? '')) i++;
        if (line[i] === '$' || line[i] === '`') throw new Error(`expansion in a double-quoted word: ${line}`);
        text += line[i];
      }
      if (i >= line.length) throw new Error(`unterminated double quote in ${line}`);
      word = (word ?? '') + text;
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if ('|&;<>()$`*?[#~'.includes(c) && word === undefined) {
      throw new Error(`shell metacharacter '${c}' outside quotes: ${line}`);
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

function header(value: string): [string, string] {
  const colon = value.indexOf(':');
  if (colon <= 0) throw new Error(`a header is "Name: value", got ${value}`);
  return [value.slice(0, colon).trim(), value.slice(colon + 1).trim()];
}

/**
 * `claude mcp add [options] <name> -- <command> [args...]` or `claude mcp add --transport http <name>
 * <url> [--header "Name: value"]...`: options (-t/--transport, -s/--scope, -e/--env, -H/--header), the
 * name and, for http, the URL; `--` ends Claude Code's own words.
 */
export function readClaudeCodeCommand(line: string): { name: string; launch: Launch } {
  const words = shellWords(line);
  if (words.slice(0, 3).join(' ') !== 'claude mcp add') throw new Error(`not a claude mcp add command: ${line}`);
  const dashes = words.indexOf('--');
  const own = words.slice(3, dashes < 0 ? undefined : dashes);
  const positional: string[] = [];
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let transport = 'stdio';
  for (let i = 0; i < own.length; i++) {
    const word = own[i]!;
    const value = () => {
      const next = own[++i];
      if (next === undefined) throw new Error(`${word} needs a value: ${line}`);
      return next;
    };
    if (word === '-t' || word === '--transport') transport = value();
    else if (word === '-s' || word === '--scope') value();
    else if (word === '-e' || word === '--env') {
      const [key, ...rest] = value().split('=');
      env[key!] = rest.join('=');
    } else if (word === '-H' || word === '--header') {
      const [name, text] = header(value());
      headers[name] = text;
    } else if (word.startsWith('-')) throw new Error(`unknown claude mcp add option ${word}`);
    else positional.push(word);
  }
  if (transport === 'stdio') {
    if (positional.length !== 1 || dashes < 0) throw new Error(`a stdio server is <name> -- <command> [args...]: ${line}`);
    const [command, ...args] = words.slice(dashes + 1);
    return { name: positional[0]!, launch: { kind: 'stdio', command: command ?? '', args, env } };
  }
  if (transport !== 'http' || positional.length !== 2 || dashes >= 0) throw new Error(`an http server is --transport http <name> <url>: ${line}`);
  return { name: positional[0]!, launch: { kind: 'http', url: positional[1]!, headers } };
}

/**
 * `npx @modelcontextprotocol/inspector --cli <target...> [--transport http] [--header "Name: value"]...
 * --method m`, or `--cli --config <file> --server <name> --method m` (then the server comes from the file).
 */
export function readInspectorCommand(line: string): { method: string; launch: Launch } | { method: string; config: string; server: string } {
  const words = shellWords(line);
  if (words.slice(0, 3).join(' ') !== 'npx @modelcontextprotocol/inspector --cli') throw new Error(`not an Inspector CLI command: ${line}`);
  const target: string[] = [];
  const headers: Record<string, string> = {};
  const flags: Record<string, string> = {};
  const rest = words.slice(3);
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (word === '--header') {
      const [name, text] = header(rest[++i] ?? '');
      headers[name] = text;
    } else if (['--transport', '--method', '--config', '--server', '--server-url'].includes(word)) flags[word] = rest[++i] ?? '';
    else if (word.startsWith('-')) throw new Error(`unknown Inspector option ${word}`);
    else target.push(word);
  }
  const method = flags['--method'] ?? '';
  if (flags['--config']) {
    if (target.length > 0 || !flags['--server']) throw new Error(`--config takes --server and no ad-hoc target: ${line}`);
    return { method, config: flags['--config'], server: flags['--server'] };
  }
  const url = flags['--server-url'] ?? (target.length === 1 && /^https?:\/\//.test(target[0]!) ? target[0] : undefined);
  if (url) {
    if (flags['--transport'] !== 'http') throw new Error(`a URL without --transport http is SSE to the Inspector: ${line}`);
    return { method, launch: { kind: 'http', url, headers } };
  }
  const [command, ...args] = target;
  return { method, launch: { kind: 'stdio', command: command ?? '', args, env: {} } };
}

/** `curl -s -X POST <url> -H "Name: value"... -d <body>`. */
export function readCurlCommand(line: string): { method: string; url: string; headers: Record<string, string>; body: string } {
  const words = shellWords(line);
  if (words[0] !== 'curl') throw new Error(`not a curl command: ${line}`);
  let method = 'GET';
  let url = '';
  let body = '';
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-s') continue;
    if (word === '-X') method = words[++i] ?? '';
    else if (word === '-H') {
      const [name, text] = header(words[++i] ?? '');
      headers[name] = text;
    } else if (word === '-d') body = words[++i] ?? '';
    else if (word.startsWith('-')) throw new Error(`unknown curl option ${word}`);
    else url = word;
  }
  return { method, url, headers, body };
}
