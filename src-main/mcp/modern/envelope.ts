/**
 * MCP 2026-07-28 on the same endpoint as the 2025 revisions: which revision a POST speaks, and the
 * checks a stateless request must pass before any method runs, in the spec's order (standard headers,
 * the `_meta` every request carries, then the version). Each refusal is a JunctionError whose code the
 * one error table answers (HeaderMismatch -32020, MissingRequiredClientCapability -32021,
 * UnsupportedProtocolVersion -32022, InvalidArguments -32602), all with HTTP 400.
 */
import type { IncomingMessage } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { JunctionError } from '../../contracts/index.js';
import { header } from '../jsonrpc-http.js';

/** The stateless revisions Junction serves; everything in SUPPORTED_PROTOCOL_VERSIONS goes through sessions. */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];
/** What server/discover and UnsupportedProtocolVersion advertise: every revision the endpoint serves. */
export const ALL_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `_meta` of a message's params, when it has one. */
function metaOf(message: unknown): Record<string, unknown> | undefined {
  if (!isObject(message) || !isObject(message['params'])) return undefined;
  const meta = message['params']['_meta'];
  return isObject(meta) ? meta : undefined;
}

/** Whether a message names its protocol version in `_meta`, as every 2026-07-28 request does. */
export function carriesModernMeta(message: unknown): boolean {
  return metaOf(message)?.[META.protocolVersion] !== undefined;
}

/**
 * Whether a request speaks 2026-07-28 or later: its `_meta` names a protocol version, or (without a
 * session) its MCP-Protocol-Version header names one that is not a session revision. A 2025 client
 * (initialize, or a request on its session) carries neither, so it keeps the path it has today; a
 * session request with an unknown header version stays the session's refusal.
 */
export function speaksModern(req: IncomingMessage, message: unknown): boolean {
  if (carriesModernMeta(message)) return true;
  const version = header(req, 'mcp-protocol-version');
  return header(req, 'mcp-session-id') === undefined && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/** The client capabilities a request declares; only their presence matters to Junction. */
const ClientCapabilities = z.looseObject({
  elicitation: z.looseObject({}).optional(),
  sampling: z.looseObject({}).optional(),
  roots: z.looseObject({}).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type ClientCapabilities = z.infer<typeof ClientCapabilities>;

const ClientInfo = z.looseObject({ name: z.string(), version: z.string() });
const LOG_LEVELS: ReadonlySet<string> = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

const absentOrObject = (value: unknown) => value === undefined || isObject(value);

/**
 * Capabilities ClientCapabilities accepts as they stand (each known one an object, extensions an
 * object): read as sent, since only their presence is read. Anything else takes the schema's way.
 */
function plainCapabilities(value: unknown): value is ClientCapabilities {
  return isObject(value) && absentOrObject(value['elicitation']) && absentOrObject(value['sampling']) && absentOrObject(value['roots']) && absentOrObject(value['extensions']);
}

/** The client's name and version, when `value` is what ClientInfo accepts. */
function clientInfoOf(value: unknown): { name: string; version: string } | undefined {
  if (value === undefined) return undefined;
  if (isObject(value) && typeof value['name'] === 'string' && typeof value['version'] === 'string') return { name: value['name'], version: value['version'] };
  const parsed = ClientInfo.safeParse(value);
  return parsed.success ? { name: parsed.data.name, version: parsed.data.version } : undefined;
}

/** The agent label a stateless request's calls carry (the console's and the audit trail's "agent"). */
function statelessAgentLabel(clientInfo: ModernRequest['clientInfo'], protocolVersion: string): string {
  return clientInfo ? `${clientInfo.name}/${clientInfo.version} ${protocolVersion}` : `agent ${protocolVersion}`;
}

/** A stateless request that passed the envelope checks. */
export interface ModernRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: { name: string; version: string } | undefined;
  /** The label its calls and its presence carry, made once per request. */
  agentLabel: string;
  logLevel: LogLevel | undefined;
  /** `Mcp-Param-{Name}` headers by lower-cased name, for tools whose parameters declare `x-mcp-header`. */
  paramHeaders: ParamHeaders;
}

/** The request's `Mcp-Param-{Name}` header values, looked up by lower-cased name when a tool's schema marks a parameter. */
export interface ParamHeaders {
  get(name: string): string | undefined;
}

const mismatch = (message: string) => new JunctionError('HeaderMismatch', `Header mismatch: ${message}`);
const invalidMeta = (message: string) => new JunctionError('InvalidArguments', `Invalid params: ${message}`);

/** Methods whose `Mcp-Name` header mirrors a body field (SEP-2243), and which field. */
const NAME_FIELD: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
/** Header values are visible ASCII, space and tab (RFC 9110). */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;

/** A value as a header carries it: as is when it is plain visible ASCII, else in the Base64 sentinel. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !SENTINEL.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The standard headers of a stateless request, mirrored from its body (what a conformant client sends). */
export function standardHeaders(message: { method: string; params?: unknown }): Record<string, string> {
  const params = isObject(message.params) ? message.params : {};
  const version = metaOf(message)?.[META.protocolVersion];
  const field = NAME_FIELD[message.method];
  const name = field ? params[field] : undefined;
  return {
    ...(typeof version === 'string' ? { 'mcp-protocol-version': version } : {}),
    'mcp-method': message.method,
    ...(typeof name === 'string' ? { 'mcp-name': encodeHeaderValue(name) } : {}),
  };
}

/** A header value with the Base64 sentinel decoded; undefined when the value is not a valid header value. */
export function decodeHeaderValue(value: string): string | undefined {
  const encoded = SENTINEL.exec(value)?.[1];
  if (encoded === undefined) return HEADER_SAFE.test(value) ? value : undefined;
  // Strict Base64: padded to a multiple of four, and nothing Node's lenient decoder would drop.
  const bytes = Buffer.from(encoded, 'base64');
  return encoded.length % 4 === 0 && bytes.toString('base64') === encoded ? bytes.toString('utf8') : undefined;
}

const PARAM_PREFIX = 'mcp-param-';

/** Read from the request's headers (Node lower-cases their names) only when asked: most tools mark no parameter. */
class RequestParamHeaders implements ParamHeaders {
  constructor(private readonly headers: IncomingMessage['headers']) {}

  get(name: string): string | undefined {
    const value = this.headers[PARAM_PREFIX + name];
    return Array.isArray(value) ? value[0] : value;
  }
}

/**
 * Checks a stateless request's headers and `_meta`; throws the refusal. `Mcp-Session-Id` belongs to
 * the session revisions, so a request that carries one with 2026 `_meta` mixes revisions.
 */
export function readModernRequest(req: IncomingMessage, message: { id: string | number; method: string; params?: unknown }): ModernRequest {
  if (header(req, 'mcp-session-id') !== undefined) {
    throw mismatch('Mcp-Session-Id belongs to the session revisions (2025-11-25 and earlier); a 2026-07-28 request carries none.');
  }
  const headerVersion = header(req, 'mcp-protocol-version');
  if (headerVersion === undefined) throw mismatch('the MCP-Protocol-Version header is required.');
  const params = isObject(message.params) ? message.params : {};
  const meta = params['_meta'];
  if (!isObject(meta)) throw invalidMeta(`params._meta is required and must carry ${META.protocolVersion} and ${META.clientCapabilities}.`);
  const protocolVersion = meta[META.protocolVersion];
  if (typeof protocolVersion !== 'string') throw invalidMeta(`params._meta["${META.protocolVersion}"] must be a string.`);
  const declared = meta[META.clientCapabilities];
  const capabilities = plainCapabilities(declared) ? { success: true as const, data: declared } : ClientCapabilities.safeParse(declared);
  if (!capabilities.success) throw invalidMeta(`params._meta["${META.clientCapabilities}"] must be an object of capability objects.`);
  if (headerVersion !== protocolVersion) throw mismatch(`MCP-Protocol-Version header '${headerVersion}' does not match _meta protocol version '${protocolVersion}'.`);
  if (!MODERN_VERSIONS.includes(protocolVersion)) {
    throw new JunctionError('UnsupportedProtocolVersion', `Unsupported protocol version '${protocolVersion}'; this server supports ${ALL_VERSIONS.join(', ')}.`, {
      details: { supported: [...ALL_VERSIONS], requested: protocolVersion },
    });
  }
  const method = header(req, 'mcp-method');
  if (method === undefined) throw mismatch('the Mcp-Method header is required.');
  if (method !== message.method) throw mismatch(`Mcp-Method header value '${method}' does not match body method '${message.method}'.`);
  const field = NAME_FIELD[message.method];
  if (field) {
    const raw = header(req, 'mcp-name');
    if (raw === undefined) throw mismatch(`the Mcp-Name header is required for ${message.method}.`);
    const name = decodeHeaderValue(raw);
    if (name === undefined) throw mismatch('the Mcp-Name header holds characters a header value may not carry; Base64-encode it (=?base64?...?=).');
    if (name !== params[field]) throw mismatch(`Mcp-Name header value '${name}' does not match body value '${String(params[field])}'.`);
  }
  // Both optional, and ignored when malformed.
  const logLevel = meta[META.logLevel];
  const clientInfo = clientInfoOf(meta[META.clientInfo]);
  return {
    id: message.id,
    method: message.method,
    params,
    protocolVersion,
    capabilities: capabilities.data,
    clientInfo,
    agentLabel: statelessAgentLabel(clientInfo, protocolVersion),
    logLevel: typeof logLevel === 'string' && LOG_LEVELS.has(logLevel) ? (logLevel as LogLevel) : undefined,
    paramHeaders: new RequestParamHeaders(req.headers),
  };
}
