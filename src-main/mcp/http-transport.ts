/**
 * Streamable HTTP at `/mcp` (and `/p/{pin}/mcp`, a session pinned to one project): one SDK transport +
 * server per agent session, bounded in number and closed when idle, so an agent that vanishes cannot
 * pin memory forever. A session stays on the route it was opened on. Malformed pins never get here:
 * the composing server refuses them first.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, JSONRPCMessageSchema, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { StructuredError } from '../contracts/index.js';
import { splitPinnedPath } from '../shared/index.js';
import { bodyRefusalStatus, type BodyReader } from './direct-http.js';
import type { McpServerFactory } from './server.js';

export interface McpHttpOptions {
  path?: string;
  factory: McpServerFactory;
  idleTimeoutMs: number;
  maxSessions: number;
  /** Reads the request body within the configured cap and deadline, or throws a JunctionError (PayloadTooLarge, RequestTimeout). */
  readBody: BodyReader;
  /** Allowed Host header values, checked by the SDK as DNS-rebinding protection. */
  allowedHosts?: string[];
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
  pin: string | undefined;
  /** Negotiated at initialize; it decides whether the session may send JSON-RPC batches. */
  protocolVersion: string;
}

/** The revision that removed JSON-RPC batching; sessions on it or later take one message per POST. */
const FIRST_VERSION_WITHOUT_BATCHING = '2025-06-18';
const batchingAllowed = (protocolVersion: string) => protocolVersion < FIRST_VERSION_WITHOUT_BATCHING;

/** The version the SDK's Server answers initialize with: the requested one when supported, else its latest. */
function negotiatedVersion(initialize: unknown): string {
  const requested = isInitializeRequest(initialize) ? initialize.params.protocolVersion : undefined;
  return requested !== undefined && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** Valid JSON that is not a JSON-RPC message (or a batch of them) is an Invalid Request, not a parse error. */
function isJsonRpcPayload(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 && messages.every((m) => JSONRPCMessageSchema.safeParse(m).success);
}

export interface McpHttpHandler {
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  sessionCount(): number;
  close(): Promise<void>;
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, data?: StructuredError) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: null }));
}

export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const path = options.path ?? '/mcp';
  const sessions = new Map<string, Session>();
  let sessionCounter = 0;

  const closeSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    session.transport.close().catch(() => undefined);
  };

  const sweep = setInterval(() => {
    const cutoff = Date.now() - options.idleTimeoutMs;
    for (const [id, session] of sessions) if (session.lastSeen < cutoff) closeSession(id);
  }, Math.min(options.idleTimeoutMs, 30_000));
  sweep.unref();

  const evictForRoom = () => {
    while (sessions.size >= options.maxSessions) {
      let oldest: [string, Session] | undefined;
      for (const entry of sessions) if (!oldest || entry[1].lastSeen < oldest[1].lastSeen) oldest = entry;
      if (!oldest) return;
      closeSession(oldest[0]);
    }
  };

  const startSession = async (req: IncomingMessage, res: ServerResponse, body: unknown, pin: string | undefined) => {
    const initialize = Array.isArray(body) ? body.find((m) => isInitializeRequest(m)) : body;
    const protocolVersion = negotiatedVersion(initialize);
    if (Array.isArray(body) && !batchingAllowed(protocolVersion)) {
      jsonRpcError(res, 400, -32600, `Invalid Request: protocol version ${protocolVersion} has no JSON-RPC batching; send initialize as a single message.`);
      return;
    }
    evictForRoom();
    const label = `#${++sessionCounter}`;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, lastSeen: Date.now(), pin, protocolVersion });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts, enableDnsRebindingProtection: true } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = options.factory.create('mcp-http', () => label, { id: () => transport.sessionId, ...(pin !== undefined ? { pin } : {}) });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, pin: string | undefined) => {
    let body: unknown;
    if (req.method === 'POST') {
      let raw: Buffer;
      try {
        raw = await options.readBody(req, res);
      } catch (error) {
        const structured = (error as { toStructured?: () => StructuredError }).toStructured?.();
        jsonRpcError(res, bodyRefusalStatus(structured?.code), -32600, (error as Error).message, structured);
        return;
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        jsonRpcError(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
        return;
      }
      if (!isJsonRpcPayload(body)) {
        jsonRpcError(res, 400, -32600, 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message (jsonrpc "2.0" with a method, or a result or error with an id).');
        return;
      }
    }
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session) {
        jsonRpcError(res, 404, -32001, 'Session not found: it expired or the server restarted; initialize a new session.');
        return;
      }
      if (session.pin !== pin) {
        const opened = session.pin === undefined ? path : `/p/${session.pin}${path}`;
        jsonRpcError(res, 400, -32000, `Bad request: this session was opened at ${opened}; send its requests there.`);
        return;
      }
      const versionHeader = req.headers['mcp-protocol-version'];
      const version = Array.isArray(versionHeader) ? versionHeader[0] : versionHeader;
      // The spec refuses only invalid or unsupported versions; the official conformance suite sends a
      // supported older version on a newer session and expects it served, so a differing one is allowed.
      if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        jsonRpcError(
          res,
          400,
          -32600,
          `Bad Request: MCP-Protocol-Version ${version} is not supported (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}); this session negotiated ${session.protocolVersion}.`,
        );
        return;
      }
      if (Array.isArray(body) && !batchingAllowed(session.protocolVersion)) {
        jsonRpcError(res, 400, -32600, `Invalid Request: this session negotiated protocol version ${session.protocolVersion}, which has no JSON-RPC batching; send one message per request.`);
        return;
      }
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res, body);
      return;
    }
    const initializing = req.method === 'POST' && (Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body));
    if (!initializing) {
      jsonRpcError(res, 400, -32000, 'Bad request: send initialize first, then the mcp-session-id header it returns.');
      return;
    }
    await startSession(req, res, body, pin);
  };

  return {
    handleRequest(req, res) {
      const route = splitPinnedPath(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (route.kind === 'malformed' || route.rest !== path) return false;
      handle(req, res, route.kind === 'valid' ? route.pin : undefined).catch((error: unknown) => jsonRpcError(res, 500, -32603, `Internal error: ${(error as Error).message}`));
      return true;
    },
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
      sessions.clear();
    },
  };
}
