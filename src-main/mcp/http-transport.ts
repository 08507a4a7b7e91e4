/**
 * Streamable HTTP at `/mcp` (and `/p/{pin}/mcp`, a session pinned to one project): the session table.
 * It reads and checks each request in the order the spec's refusals come in, then hands it to the
 * session's own transport (`HttpSessionTransport`, one SDK Server each). Sessions are bounded in number
 * and closed when idle, so an agent that vanishes cannot pin memory forever. A session stays on the
 * route it was opened on. Malformed pins never get here: the composing server refuses them first.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { httpStatusOf, isJunctionError, jsonRpcCodeOf, toStructuredError, type StructuredError } from '../contracts/index.js';
import { requestRoute } from '../shared/index.js';
import type { BodyReader } from './direct-http.js';
import { HttpSessionTransport } from './http-session-transport.js';
import { header, isInitialize, MAX_BATCH_SIZE, parseJsonRpcBody, refuse, refusedPostHeaders, refusedStreamHeaders } from './jsonrpc-http.js';
import { speaksModern } from './modern/envelope.js';
import { serveModern, type ModernEndpoint } from './modern/http.js';
import type { McpServerFactory } from './server.js';

export interface McpHttpOptions {
  path?: string;
  factory: McpServerFactory;
  /** The stateless revision's methods (2026-07-28), chosen per request by what the request carries. */
  modern?: ModernEndpoint;
  idleTimeoutMs: number;
  maxSessions: number;
  /** Reads the request body within the configured cap and deadline, or throws a JunctionError (PayloadTooLarge, RequestTimeout). */
  readBody: BodyReader;
  /** Allowed Host header values (DNS-rebinding protection) when set; the access gate checks Host and Origin for every route besides. */
  allowedHosts?: string[];
}

interface Session {
  transport: HttpSessionTransport;
  lastSeen: number;
  pin: string | undefined;
  /** Negotiated at initialize; it decides whether the session may send JSON-RPC batches. */
  protocolVersion: string;
}

/** A POST body read and found to be JSON-RPC. */
interface Body {
  messages: JSONRPCMessage[];
  batch: boolean;
}

/** The revision that removed JSON-RPC batching; sessions on it or later take one message per POST. */
const FIRST_VERSION_WITHOUT_BATCHING = '2025-06-18';
const batchingAllowed = (protocolVersion: string) => protocolVersion < FIRST_VERSION_WITHOUT_BATCHING;

/** The version the SDK's Server answers initialize with: the requested one when supported, else its latest. */
function negotiatedVersion(initialize: JSONRPCMessage | undefined): string {
  const params = initialize && 'params' in initialize ? initialize.params : undefined;
  const requested = params?.['protocolVersion'];
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

export interface McpHttpHandler {
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  sessionCount(): number;
  close(): Promise<void>;
}

/** Answers a body that could not be read: the request's fault unless the reader said otherwise. */
function refuseUnread(res: ServerResponse, error: unknown): void {
  const structured: StructuredError = isJunctionError(error) ? error.toStructured() : { code: 'InvalidArguments', message: (error as Error).message };
  refuse(res, httpStatusOf(structured), -32600, structured.message, isJunctionError(error) ? structured : undefined);
}

/** A POST body as JSON-RPC, or undefined once its refusal is answered. */
function messagesOf(raw: Buffer, res: ServerResponse): Body | undefined {
  const parsed = parseJsonRpcBody(raw);
  if (parsed.ok) return parsed;
  refuse(res, 400, parsed.code, parsed.message);
  return undefined;
}

/** The checks the SDK's transport made of every POST after the session was found, in its order. */
function refusedPost(req: IncomingMessage, res: ServerResponse, body: Body): boolean {
  if (refusedPostHeaders(req, res)) return true;
  if (body.messages.length > MAX_BATCH_SIZE) {
    refuse(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    return true;
  }
  return false;
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

  const startSession = async (req: IncomingMessage, res: ServerResponse, body: Body, pin: string | undefined) => {
    const protocolVersion = negotiatedVersion(body.messages.find(isInitialize));
    if (body.batch && !batchingAllowed(protocolVersion)) {
      refuse(res, 400, -32600, `Invalid Request: protocol version ${protocolVersion} has no JSON-RPC batching; send initialize as a single message.`);
      return;
    }
    if (refusedPost(req, res, body)) return;
    if (body.messages.length > 1) {
      refuse(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
      return;
    }
    const label = `#${++sessionCounter}`;
    const sessionId = randomUUID();
    let server: Server;
    try {
      server = await options.factory.create('mcp-http', () => label, { id: () => sessionId, protocolVersion, ...(pin !== undefined ? { pin } : {}) });
    } catch (error) {
      const structured = toStructuredError(error);
      refuse(res, httpStatusOf(structured), jsonRpcCodeOf(structured), structured.message, structured);
      return;
    }
    // Room is made once the server exists, so initializes that waited for its first load cannot overrun the bound together.
    evictForRoom();
    const transport = new HttpSessionTransport(sessionId);
    transport.onclose = () => {
      if (sessions.get(sessionId)?.transport === transport) sessions.delete(sessionId);
    };
    sessions.set(sessionId, { transport, lastSeen: Date.now(), pin, protocolVersion });
    await server.connect(transport);
    const toolCall = options.factory.toolCalls(server);
    if (toolCall) transport.serveToolCalls(toolCall, server);
    transport.accept(req, res, body.messages, body.batch);
  };

  const serveSession = (req: IncomingMessage, res: ServerResponse, session: Session, sessionId: string, body: Body | undefined) => {
    if (body) {
      if (refusedPost(req, res, body)) return;
      if (body.messages.some(isInitialize)) {
        refuse(res, 400, -32600, 'Invalid Request: Server already initialized');
        return;
      }
      session.transport.accept(req, res, body.messages, body.batch);
      return;
    }
    if (req.method === 'GET') {
      if (refusedStreamHeaders(req, res)) return;
      if (!session.transport.openStream(res)) refuse(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
      return;
    }
    if (req.method === 'DELETE') {
      closeSession(sessionId);
      res.writeHead(200).end();
      return;
    }
    refuse(res, 405, -32000, 'Method not allowed.', undefined, { allow: 'GET, POST, DELETE' });
  };

  /** A request that is not a stateless one: a session's, or the initialize that opens one. */
  const serveSessionRequest = (req: IncomingMessage, res: ServerResponse, body: Body | undefined, pin: string | undefined): Promise<void> | undefined => {
    const sessionId = header(req, 'mcp-session-id');
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session) {
        refuse(res, 404, -32001, 'Session not found: it expired or the server restarted; initialize a new session.');
        return;
      }
      if (session.pin !== pin) {
        const opened = session.pin === undefined ? path : `/p/${session.pin}${path}`;
        refuse(res, 400, -32000, `Bad request: this session was opened at ${opened}; send its requests there.`);
        return;
      }
      const version = header(req, 'mcp-protocol-version');
      // The spec refuses only invalid or unsupported versions; the official conformance suite sends a
      // supported older version on a newer session and expects it served, so a differing one is allowed.
      if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        refuse(
          res,
          400,
          -32600,
          `Bad Request: MCP-Protocol-Version ${version} is not supported (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}); this session negotiated ${session.protocolVersion}.`,
        );
        return;
      }
      if (body?.batch && !batchingAllowed(session.protocolVersion)) {
        refuse(res, 400, -32600, `Invalid Request: this session negotiated protocol version ${session.protocolVersion}, which has no JSON-RPC batching; send one message per request.`);
        return;
      }
      session.lastSeen = Date.now();
      serveSession(req, res, session, sessionId, body);
      return;
    }
    if (!body && options.modern && speaksModern(req, undefined)) {
      // The stateless revision has no GET stream and no session to DELETE.
      refuse(res, 405, -32000, 'Method not allowed: protocol version 2026-07-28 takes POST only (subscriptions/listen replaces the GET stream).', undefined, { allow: 'POST' });
      return;
    }
    if (!body?.messages.some(isInitialize)) {
      refuse(res, 400, -32000, 'Bad request: send initialize first, then the mcp-session-id header it returns.');
      return;
    }
    return startSession(req, res, body, pin);
  };

  /**
   * Reads the request and serves it by the revision it speaks. The session revisions' handling is a
   * function of its own: an async function's suspended frame holds a slot for every local of its body,
   * and each stateless call keeps this one while its body is read.
   */
  const handle = async (req: IncomingMessage, res: ServerResponse, pin: string | undefined) => {
    if (options.allowedHosts && !options.allowedHosts.includes(req.headers.host ?? '')) {
      refuse(res, 403, -32000, `Invalid Host header: ${req.headers.host}`);
      return;
    }
    if (req.method !== 'POST') return serveSessionRequest(req, res, undefined, pin);
    // Read here rather than in an async helper of its own: that would be one more promise and turn per request.
    let raw: Buffer;
    try {
      raw = await options.readBody(req, res);
    } catch (error) {
      refuseUnread(res, error);
      return;
    }
    const body = messagesOf(raw, res);
    if (!body) return;
    if (options.modern && body.messages.some((m) => speaksModern(req, m))) {
      if (refusedPostHeaders(req, res)) return;
      if (body.batch) {
        refuse(res, 400, -32600, 'Invalid Request: protocol version 2026-07-28 has no JSON-RPC batching; send one message per request.');
        return;
      }
      // Returned rather than awaited: this frame need not stay alive while the call runs.
      return serveModern(options.modern, req, res, body.messages[0]!, pin);
    }
    return serveSessionRequest(req, res, body, pin);
  };

  return {
    handleRequest(req, res) {
      const route = requestRoute(req);
      if (route.kind === 'malformed' || route.rest !== path) return false;
      handle(req, res, route.kind === 'valid' ? route.pin : undefined).catch((error: unknown) => refuse(res, 500, -32603, `Internal error: ${(error as Error).message}`));
      return true;
    },
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.transport.close().catch(() => undefined)));
    },
  };
}
