/** Turns a call into something an operator can paste elsewhere: a curl command or a JSON-RPC request. Pure. */
import { toolsCallRequest } from './jsonrpc-trace.js';

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `POST {apiUrl}/{tool}` with the arguments as the body; a token, when needed, comes from the environment. */
export function curlCommand(apiUrl: string, tool: string, args: unknown, needsToken: boolean): string {
  const url = `${apiUrl.replace(/\/$/, '')}/${encodeURIComponent(tool)}`;
  const parts = ['curl -sS -X POST', shellQuote(url), "-H 'Content-Type: application/json'"];
  if (needsToken) parts.push('-H "Authorization: Bearer $JUNCTION_TOKEN"');
  parts.push('--data', shellQuote(JSON.stringify(args ?? {})));
  return parts.join(' ');
}

/** The MCP `tools/call` request an agent would send for the same call. */
export function jsonRpcRequest(tool: string, args: unknown, id: number | string = 1): string {
  return JSON.stringify(toolsCallRequest(tool, args, id), null, 2);
}
