/**
 * Every configuration key Junction accepts, with its type, default and meaning. One table drives the
 * command line, `JUNCTION_*` environment variables and the settings file, so a key cannot exist in one
 * and be unknown to another.
 */
export type KeyType =
  | { kind: 'int'; min: number; max: number }
  | { kind: 'string' }
  | { kind: 'bool' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'list' };

export interface KeySpec {
  type: KeyType;
  default: string | number | boolean | string[] | undefined;
  description: string;
}

const int = (min: number, max: number) => ({ kind: 'int', min, max }) as const;
const str = { kind: 'string' } as const;
const bool = { kind: 'bool' } as const;
const list = { kind: 'list' } as const;
const enumOf = <const V extends readonly string[]>(...values: V) => ({ kind: 'enum', values }) as const;

export const MODES = ['inspection-only', 'transactional', 'approval-required', 'autonomous-trusted', 'compiler-validation'] as const;

export const CONFIG_KEYS = {
  host: { type: str, default: '127.0.0.1', description: 'Address to bind. Loopback unless you configure otherwise; non-loopback requires auth=token.' },
  port: { type: int(0, 65535), default: 8080, description: 'Port for the hub, /mcp, /api and the console (0 picks a free port).' },
  'client-transport': { type: enumOf('streamableHttp', 'stdio'), default: 'streamableHttp', description: 'How agents reach the MCP server when started by `junction serve`.' },
  workspace: { type: list, default: [] as string[], description: 'Workspace directories to open at start (comma separated). Configured workspaces are trusted.' },
  mode: { type: enumOf(...MODES), default: 'transactional', description: 'Host mode: what agents may do with workspaces.' },
  'elicitation-answerer': { type: enumOf('agent', 'console'), default: 'agent', description: 'Who answers elicitations tools request: the calling agent, or the operator in the console.' },
  'tool-output-schema': { type: enumOf('publish', 'omit'), default: 'publish', description: 'Publish tool output schemas in tools/list, or omit them.' },
  'plugin-timeout': { type: int(100, 3_600_000), default: 10_000, description: 'Whole-call deadline for plugin tool calls, in milliseconds.' },
  'project-routing': {
    type: enumOf('single', 'multi'),
    default: 'single',
    description:
      'single: one editor and one runtime plugin in all (newest wins). multi: editors of different projects side by side; agents choose with /p/{pin}/mcp, /p/{pin}/api/tools/{name}, or list_engine_instances / select_engine_instance.',
  },
  'project-pin': {
    type: str,
    default: undefined,
    description: '`junction connect` only: relay to /p/{pin}/mcp, the project whose path hash starts with this pin (1-64 hex characters; needs project-routing=multi).',
  },
  'plugin-reconnect-wait-seconds': { type: int(0, 3600), default: 20, description: 'How long a disconnected plugin is awaited before calls fall back or fail.' },
  'max-frame-bytes': {
    type: int(1024, 256 * 1024 * 1024),
    default: 134_217_728,
    description: "Largest hub message either way (McpPlugin.Server's MaximumReceiveMessageSize, 128 MB); a larger one fails only its call, with PayloadTooLarge.",
  },
  'max-body-bytes': {
    type: int(1024, 256 * 1024 * 1024),
    default: 33_554_432,
    description: "Largest accepted HTTP request body on /mcp and /api (McpPlugin.Server takes 30 MB, Kestrel's default); a larger one is answered 413 PayloadTooLarge.",
  },
  'body-timeout': { type: int(100, 3_600_000), default: 30_000, description: 'Deadline for receiving a whole HTTP request body on /mcp and /api, in milliseconds.' },
  'rate-limit': { type: int(1, 1_000_000), default: 500, description: 'Tool calls per second each agent may make (token bucket).' },
  'rate-limit-burst': { type: int(1, 1_000_000), default: 1000, description: 'Calls an agent may make at once before rate-limit applies.' },
  'max-in-flight-per-agent': { type: int(1, 100_000), default: 128, description: 'Tool calls one agent may have running at the same time.' },
  'keep-alive-interval': { type: int(100, 600_000), default: 30_000, description: 'Hub keep-alive ping interval, in milliseconds (McpPlugin.Server: 30 s).' },
  'client-timeout': { type: int(1000, 3_600_000), default: 300_000, description: 'Close a hub connection silent for this long, in milliseconds (McpPlugin.Server: 5 min; the .NET client pings every 30 s).' },
  'idle-timeout-seconds': { type: int(1, 86_400), default: 600, description: 'Close an MCP HTTP session idle for this long.' },
  'max-idle-session-count': { type: int(1, 100_000), default: 1000, description: 'Most concurrent MCP HTTP sessions; the longest idle is closed first.' },
  'state-dir': { type: str, default: undefined, description: 'Directory for the recovery journal, tokens and demo data (default: the user data directory).' },
  'plugins-dir': { type: str, default: undefined, description: 'Directory of in-process plugin modules to load.' },
  auth: { type: enumOf('none', 'token'), default: 'none', description: 'Agent and plugin authentication mode.' },
  token: { type: str, default: undefined, description: 'Bearer token for auth=token (generated and stored on first run when unset).' },
  'webhook-tool-url': { type: str, default: undefined, description: 'Analytics webhook for tool events.' },
  'webhook-prompt-url': { type: str, default: undefined, description: 'Analytics webhook for prompt events.' },
  'webhook-resource-url': { type: str, default: undefined, description: 'Analytics webhook for resource events.' },
  'webhook-connection-url': { type: str, default: undefined, description: 'Analytics webhook for connection events.' },
  'webhook-token': { type: str, default: undefined, description: 'Secret sent with webhooks and used for the HMAC signature.' },
  'webhook-header': { type: str, default: 'X-Webhook-Token', description: 'Header carrying webhook-token.' },
  'webhook-timeout': { type: int(100, 600_000), default: 10_000, description: 'Webhook request timeout, in milliseconds.' },
  'webhook-authorization-url': { type: str, default: undefined, description: 'Synchronous authorization webhook for agent and plugin connections.' },
  'webhook-authorization-fail-open': { type: bool, default: false, description: 'Allow connections when the authorization webhook fails.' },
  audit: { type: bool, default: true, description: 'Record every tool call and transaction event in the audit trail (SQLite in the state directory).' },
  'audit-retention-days': { type: int(1, 36_500), default: 30, description: 'Delete audit records older than this many days.' },
  'audit-max-mb': { type: int(1, 1_048_576), default: 1024, description: 'Keep the audit database under this size (MiB) by deleting its oldest records.' },
  redact: { type: list, default: [] as string[], description: 'Extra redaction: JSON pointers into {arguments, result} (/arguments/user/ssn, * matches any key) and re:REGEX entries; secret-named keys are always redacted.' },
  'code-action-reference-lifetime': { type: int(1000, 86_400_000), default: 300_000, description: 'Lifetime of code action references, in milliseconds.' },
  'approval-policy': { type: str, default: undefined, description: 'JSON file of approval rules (allow, ask or deny) for every tool call; without it every call is allowed.' },
  'approval-timeout': { type: int(1, 86_400), default: 120, description: 'Seconds a call held by an ask rule waits for the operator before it is refused with ApprovalTimedOut.' },
  'approval-max-held': { type: int(1, 100_000), default: 100, description: 'Most calls held for the operator at once; more are refused with Overloaded.' },
  'approval-max-held-mb': { type: int(1, 65_536), default: 64, description: 'Most MiB of arguments held for the operator at once, over all held calls; more are refused with Overloaded.' },
  demo: { type: bool, default: false, description: 'Open the bundled demo workspace and connect the example scene plugins.' },
  console: { type: bool, default: true, description: 'Serve the operator console.' },
  'console-call-history': { type: int(10, 100_000), default: 1000, description: 'Recent tool calls (with their arguments and results) the console keeps in memory.' },
  'log-level': { type: enumOf('error', 'warn', 'info', 'debug'), default: 'info', description: 'Log verbosity (logs go to stderr).' },
  settings: { type: str, default: undefined, description: 'Path of the JSON settings file (default: settings.json in the user config directory).' },
} as const satisfies Record<string, KeySpec>;

export type ConfigKey = keyof typeof CONFIG_KEYS;

type ValueOf<T extends KeyType> = T extends { kind: 'int' }
  ? number
  : T extends { kind: 'bool' }
    ? boolean
    : T extends { kind: 'list' }
      ? string[]
      : T extends { kind: 'enum'; values: infer V extends readonly string[] }
        ? V[number]
        : string;

export type Config = {
  -readonly [K in ConfigKey]: (typeof CONFIG_KEYS)[K]['default'] extends undefined
    ? ValueOf<(typeof CONFIG_KEYS)[K]['type']> | undefined
    : ValueOf<(typeof CONFIG_KEYS)[K]['type']>;
};

/** `plugin-timeout` → `JUNCTION_PLUGIN_TIMEOUT` */
export function envNameOf(key: string): string {
  return `JUNCTION_${key.toUpperCase().replace(/-/g, '_')}`;
}
