/**
 * Raw MCP 2026-07-28 requests (no SDK speaks the revision yet): each POST carries its own `_meta`
 * (version, client info, capabilities) and the standard headers taken from its body; an SSE answer is
 * read to its response event.
 */
export const MODERN_VERSION = '2026-07-28';

/** Which params field the `Mcp-Name` header mirrors, per method. */
const NAME_FIELD: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

export interface ModernAnswer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** Who sends: the client's name (the owner of its parked calls) and the capabilities it declares. */
export interface ModernAgent {
  name?: string;
  capabilities?: Record<string, unknown>;
}

let nextId = 1;

/** Sends one stateless request to `mcpUrl` as `agent`. */
export async function modernRpc(mcpUrl: string, method: string, params: Record<string, unknown>, agent: ModernAgent = {}): Promise<ModernAnswer> {
  const field = NAME_FIELD[method];
  const name = field ? params[field] : undefined;
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientInfo': { name: agent.name ?? 'raw-agent', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': agent.capabilities ?? { elicitation: {}, sampling: {}, roots: {} },
      },
    },
  };
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream') ? text.trim().split('\n').filter((l) => l.startsWith('data: ')).at(-1)!.slice(6) : text;
  return { status: response.status, ...(JSON.parse(json) as Omit<ModernAnswer, 'status'>) };
}
