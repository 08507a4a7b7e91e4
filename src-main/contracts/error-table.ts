/**
 * The one table from an error kind to what each transport answers for a tool outcome or a request
 * refusal. Over HTTP (`/api`, `/api/system-tools`, unreadable `/mcp` bodies) the kind is the status.
 * Over MCP a tools/call failure is always an `isError` result, so the agent's model reads it; a
 * failure of any other request (prompts, resources, completion, subscriptions, or tools/call of a
 * name no source publishes) is a JSON-RPC error with the kind's code.
 */
import { KIND_BY_CODE, type ErrorCode, type ErrorKind, type StructuredError } from './errors.js';

/** JSON-RPC 2.0 codes the table uses (the MCP SDK's ErrorCode values). */
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_INVALID_PARAMS = -32602;
export const JSONRPC_INTERNAL_ERROR = -32603;

export interface KindAnswer {
  http: number;
  jsonRpc: number;
}

export const ANSWER_BY_KIND: Readonly<Record<ErrorKind, KindAnswer>> = {
  binding: { http: 400, jsonRpc: JSONRPC_INVALID_PARAMS },
  unauthorized: { http: 401, jsonRpc: JSONRPC_INTERNAL_ERROR },
  forbidden: { http: 403, jsonRpc: JSONRPC_INTERNAL_ERROR },
  notFound: { http: 404, jsonRpc: JSONRPC_INVALID_PARAMS },
  methodNotAllowed: { http: 405, jsonRpc: JSONRPC_INVALID_REQUEST },
  conflict: { http: 409, jsonRpc: JSONRPC_INTERNAL_ERROR },
  requestTimeout: { http: 408, jsonRpc: JSONRPC_INTERNAL_ERROR },
  tooLarge: { http: 413, jsonRpc: JSONRPC_INVALID_PARAMS },
  thrown: { http: 422, jsonRpc: JSONRPC_INTERNAL_ERROR },
  rateLimited: { http: 429, jsonRpc: JSONRPC_INTERNAL_ERROR },
  internal: { http: 500, jsonRpc: JSONRPC_INTERNAL_ERROR },
  unavailable: { http: 503, jsonRpc: JSONRPC_INTERNAL_ERROR },
  timeout: { http: 504, jsonRpc: JSONRPC_INTERNAL_ERROR },
};

/**
 * Codes the MCP specification numbers itself (2026-07-28 reserves -32020..-32099 and fixes these),
 * answered with that number instead of their kind's; their HTTP status stays the kind's.
 */
const JSONRPC_BY_CODE: Readonly<Partial<Record<ErrorCode, number>>> = {
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  MethodNotFound: -32601,
};

/** The HTTP status of a structured error, by its code's kind. */
export function httpStatusOf(error: Pick<StructuredError, 'code'>): number {
  return ANSWER_BY_KIND[KIND_BY_CODE[error.code]].http;
}

/** The JSON-RPC error code of a structured error raised by a request other than a tool call. */
export function jsonRpcCodeOf(error: Pick<StructuredError, 'code'>): number {
  return JSONRPC_BY_CODE[error.code] ?? ANSWER_BY_KIND[KIND_BY_CODE[error.code]].jsonRpc;
}
