/**
 * A raw MCP streamable-HTTP session for load: initialize and initialized through plain HTTP posts,
 * then tools/call posts on one kept-alive connection. Raw posts rather than the SDK Client so the
 * load generator spends about as little per call on /mcp as on the floors it is compared with; what
 * differs between the rows is then the server. For the same reason a call's body is encoded once (each
 * call writes only its id before it) and a large reply is searched, not parsed. Replies may come as
 * JSON or as one SSE event.
 */
import { HttpConnection, type HttpReply, type Lane } from './load.js';

const ACCEPT = 'application/json, text/event-stream';
const PROTOCOL_VERSION = '2025-06-18';

interface JsonRpcReply {
  id?: unknown;
  result?: { isError?: boolean; protocolVersion?: string; resultType?: string };
  error?: unknown;
}

/** The JSON-RPC reply to request `id` in a JSON or SSE body. */
export function readReply(reply: HttpReply, id: number): JsonRpcReply | undefined {
  const type = String(reply.headers['content-type'] ?? '');
  const candidates = type.includes('text/event-stream')
    ? reply.body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
    : [reply.body];
  for (const text of candidates) {
    try {
      const parsed = JSON.parse(text) as JsonRpcReply;
      if (parsed.id === id) return parsed;
    } catch {
      // Not JSON (a keep-alive comment or a partial line): not the reply.
    }
  }
  return undefined;
}

/** Replies larger than this are searched rather than parsed (see `answered`). */
const PARSED_REPLY_BYTES = 64 * 1024;

/** Bytes at each end of a large reply where its envelope (result key, id) is looked for first. */
const EDGE_BYTES = 256;

/** Whether `needle` occurs in `raw`, looked for at its two ends before the whole of it. */
function occursIn(raw: Buffer, needle: string): boolean {
  return raw.subarray(0, EDGE_BYTES).includes(needle) || raw.subarray(-EDGE_BYTES).includes(needle) || raw.includes(needle);
}

/**
 * Whether `reply` answers request `id` with a result that is not a tool error. A large reply is searched
 * once through, as the floors' check searches theirs (the envelope's keys at its ends first): parsing
 * megabytes, or searching them three times, would charge this path alone with load generator CPU, on a
 * machine the generator shares with the servers. The large-payload part's data is base64, which holds
 * no quote, so the searched keys cannot occur inside it.
 */
function answered(reply: HttpReply, id: number): boolean {
  if (reply.raw.length <= PARSED_REPLY_BYTES) {
    const parsed = readReply(reply, id);
    return parsed?.result !== undefined && parsed.result.isError !== true;
  }
  return occursIn(reply.raw, '"result":{') && occursIn(reply.raw, `"id":${id}`) && !reply.raw.includes('"isError":true');
}

export async function openMcpLane(base: URL, tool: string, args: Record<string, unknown>): Promise<Lane> {
  const connection = new HttpConnection(base);
  const init = await connection.post(
    '/mcp',
    JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench-load', version: '1.0.0' } } }),
    { accept: ACCEPT },
  );
  const session = init.headers['mcp-session-id'];
  const negotiated = readReply(init, 0)?.result?.protocolVersion;
  if (init.status !== 200 || typeof session !== 'string' || !negotiated) throw new Error(`MCP initialize failed: ${init.status} ${init.body.slice(0, 300)}`);
  const headers = { accept: ACCEPT, 'mcp-session-id': session, 'mcp-protocol-version': negotiated };
  const initialized = await connection.post('/mcp', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers);
  if (initialized.status !== 202 && initialized.status !== 200) throw new Error(`MCP initialized failed: ${initialized.status}`);
  let nextId = 1;
  const rest = Buffer.from(`,"method":"tools/call","params":${JSON.stringify({ name: tool, arguments: args })}}`);
  return {
    async call() {
      const id = nextId++;
      const reply = await connection.post('/mcp', [Buffer.from(`{"jsonrpc":"2.0","id":${id}`), rest], headers);
      return reply.status === 200 && answered(reply, id);
    },
    async close() {
      await connection.delete('/mcp', headers).catch(() => undefined);
      connection.close();
    },
  };
}

/** The revision of the stateless lane: no initialize, no session, every request self-describing. */
const MODERN_VERSION = '2026-07-28';

/**
 * A raw MCP 2026-07-28 lane: stateless `tools/call` posts on one kept-alive connection, each with the
 * `_meta` every request of that revision carries (protocol version, client capabilities and info) and
 * the standard headers mirrored from its body (MCP-Protocol-Version, Mcp-Method, Mcp-Name), as a
 * conformant client sends them.
 */
export async function openModernMcpLane(base: URL, tool: string, args: Record<string, unknown>): Promise<Lane> {
  const connection = new HttpConnection(base);
  const headers = { accept: ACCEPT, 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/call', 'mcp-name': tool };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'bench-load', version: '1.0.0' },
  };
  let nextId = 1;
  return {
    async call() {
      const id = nextId++;
      const reply = await connection.post('/mcp', JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args, _meta: meta } }), headers);
      const parsed = readReply(reply, id);
      return reply.status === 200 && parsed?.result?.resultType === 'complete' && parsed.result.isError !== true;
    },
    close: () => connection.close(),
  };
}
