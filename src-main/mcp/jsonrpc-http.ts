/**
 * The JSON-RPC side of an HTTP request to /mcp: reading a body into messages, telling the kinds of
 * message apart, the header checks the streamable HTTP spec asks for, and the error answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { isInitializeRequest, JSONRPCMessageSchema, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { StructuredError } from '../contracts/index.js';
import { parseJsonBytes } from '../shared/index.js';

/** Messages in one JSON-RPC batch at most, as the SDK's own transport allows. */
export const MAX_BATCH_SIZE = 100;

/** Answers with a JSON-RPC error not tied to a request id, in one write. */
export function refuse(res: ServerResponse, status: number, code: number, message: string, data?: StructuredError, headers?: Record<string, string>): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export type ParsedBody = { ok: true; messages: JSONRPCMessage[]; batch: boolean } | { ok: false; code: number; message: string };

const CALL_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The common case, checked without the SDK's schema: a request or notification whose params carry no
 * `_meta`, or a plain one. It accepts only what JSONRPCMessageSchema accepts (anything else goes to the schema), so the
 * SDK's Server never receives a message it cannot classify and leave unanswered.
 */
function plainCall(item: unknown): item is JSONRPCMessage {
  if (!isPlainObject(item) || item['jsonrpc'] !== '2.0' || typeof item['method'] !== 'string') return false;
  for (const key in item) if (!CALL_KEYS.has(key)) return false;
  if ('id' in item && typeof item['id'] !== 'string' && !Number.isSafeInteger(item['id'])) return false;
  const params = item['params'];
  return !('params' in item) || (isPlainObject(params) && (!('_meta' in params) || plainMeta(params['_meta'])));
}

/**
 * A `_meta` the SDK's RequestMeta accepts as it stands (2026-07-28 requests carry one on every call):
 * an object whose progress token, if any, is a string or an integer, and without a related task.
 */
function plainMeta(meta: unknown): boolean {
  if (!isPlainObject(meta) || 'io.modelcontextprotocol/related-task' in meta) return false;
  const token = meta['progressToken'];
  return token === undefined ? !('progressToken' in meta) : typeof token === 'string' || Number.isSafeInteger(token);
}

const TOOL_CALL_PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

/**
 * A `tools/call` request that CallToolRequestSchema surely accepts as it stands: a request (a string or
 * integer id) whose params hold a string `name`, an object of `arguments` if any, a plain `_meta` if
 * any, and nothing else (so no `task`, which the SDK's Protocol would refuse before the handler). A
 * session's transport serves such a call without the SDK's Protocol (direct-tool-calls.ts); anything
 * it does not accept here takes the SDK's way and gets the SDK's answer.
 */
export function isPlainToolCall(message: JSONRPCMessage): message is JSONRPCRequest & { params: { name: string; arguments?: Record<string, unknown> } } {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return false;
  const id: unknown = message.id;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  const params: unknown = message.params;
  if (!isPlainObject(params)) return false;
  for (const key in params) if (!TOOL_CALL_PARAM_KEYS.has(key)) return false;
  const args = params['arguments'];
  return typeof params['name'] === 'string' && (args === undefined ? !('arguments' in params) : isPlainObject(args)) && (!('_meta' in params) || plainMeta(params['_meta']));
}

/**
 * The body as JSON-RPC messages. Broken JSON is a parse error (-32700); valid JSON that is not a
 * JSON-RPC message, or a batch of them, is an Invalid Request (-32600).
 */
export function parseJsonRpcBody(raw: Buffer): ParsedBody {
  let body: unknown;
  try {
    body = parseJsonBytes(raw);
  } catch {
    return { ok: false, code: -32700, message: 'Parse error: the request body is not valid JSON.' };
  }
  const batch = Array.isArray(body);
  const items: unknown[] = Array.isArray(body) ? body : [body];
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    if (plainCall(item)) {
      messages.push(item);
      continue;
    }
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) break;
    messages.push(parsed.data);
  }
  if (messages.length === 0 || messages.length !== items.length) {
    return { ok: false, code: -32600, message: 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message (jsonrpc "2.0" with a method, or a result or error with an id).' };
  }
  return { ok: true, messages, batch };
}

export const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;
export const isResponse = (m: JSONRPCMessage): boolean => 'result' in m || 'error' in m;
export const isInitialize = (m: JSONRPCMessage): boolean => 'method' in m && m.method === 'initialize' && isInitializeRequest(m);

/** The id a response answers, or undefined for anything else (an error about an unreadable request has none). */
export function answeredId(m: JSONRPCMessage): RequestId | undefined {
  return isResponse(m) ? (m as { id?: RequestId }).id : undefined;
}

export function hasProgressToken(m: JSONRPCRequest): boolean {
  return m.params?._meta?.progressToken !== undefined;
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A POST must accept both answers the server may choose: plain JSON and an SSE stream (a list, so a substring test). */
export function refusedPostHeaders(req: IncomingMessage, res: ServerResponse): boolean {
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    refuse(res, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    return true;
  }
  const type = req.headers['content-type'];
  // The exact value nearly every client sends is judged without parsing it (the parse allocates a parameter map and runs two regular expressions).
  if (type !== 'application/json' && !isJsonContentType(type)) {
    refuse(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    return true;
  }
  return false;
}

export function refusedStreamHeaders(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.headers.accept?.includes('text/event-stream')) return false;
  refuse(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
  return true;
}
