/** How a stateless request's failure goes out as a JSON-RPC error: a method's own, an SDK one, or a structured one. */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { httpStatusOf, jsonRpcCodeOf, KIND_BY_CODE, toStructuredError } from '../../contracts/index.js';

/** A JSON-RPC error a method answers with; `data` goes out as given. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** An SDK McpError as the JSON-RPC error it stands for (content sources may throw them). */
export function fromMcpError(error: unknown): JsonRpcError | undefined {
  return error instanceof McpError ? new JsonRpcError(error.code, error.message.replace(`MCP error ${error.code}: `, ''), error.data) : undefined;
}

export interface RpcErrorAnswer {
  status: number;
  error: { code: number; message: string; data?: unknown };
}

/** The request's own refusals answer their table status; the rest are results of the work (200). */
export function errorAnswer(error: unknown): RpcErrorAnswer {
  const rpc = error instanceof JsonRpcError ? error : fromMcpError(error);
  if (rpc) return { status: 200, error: { code: rpc.code, message: rpc.message, ...(rpc.data !== undefined ? { data: rpc.data } : {}) } };
  const structured = toStructuredError(error);
  const refusal = KIND_BY_CODE[structured.code] === 'binding' || structured.code === 'MethodNotFound';
  // The spec's errors carry their data members (supported/requested, requiredCapabilities) at the top of `data`.
  return { status: refusal ? httpStatusOf(structured) : 200, error: { code: jsonRpcCodeOf(structured), message: structured.message, data: { ...structured.details, ...structured } } };
}
