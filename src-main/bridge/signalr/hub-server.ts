/**
 * The SignalR-compatible hub endpoint: routes negotiate and WebSocket upgrades for one path, owns
 * the method table and the live connections. It never listens itself; the composing HTTP server
 * hands it requests and upgrades and routes elsewhere when it answers false.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { JunctionError } from '../../contracts/index.js';
import { refuse, type Refusal } from '../../security/index.js';
import { TypedEmitter, WebSocketUpgrades } from '../../shared/index.js';
import { SignalRConnection, type ConnectionSettings } from './hub-connection.js';
import { refuseHubUpgrade, replyJson, replyRefusal, type HttpRefusal } from './http-replies.js';
import { buildNegotiation, ConnectionTokenStore, newOpaqueId, selectNegotiateVersion } from './negotiation.js';
import type { HubConnection, HubMethodHandler, HubServerEvents } from './types.js';

export type AuthorizeResult = { ok: true } | Refusal;

export interface HubServerOptions {
  path?: string;
  maxFrameBytes?: number;
  keepAliveIntervalMs?: number;
  clientTimeoutMs?: number;
  handshakeTimeoutMs?: number;
  /** How long a connection token from negotiate stays usable. */
  negotiateTokenTtlMs?: number;
  /** Client invocations (and streams) one connection may have running at once; more get a Completion error. */
  maxParallelInvocations?: number;
  /** Called before negotiate and before every upgrade; a refusal is answered with its status and `{ error: { code, message } }`. */
  authorize?: (req: IncomingMessage) => Promise<AuthorizeResult>;
}

export interface HubServer {
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Client invocations one connection may have running at once (more get a Completion error). */
  readonly maxParallelInvocations: number;
  /** Registers a client-callable method (names match case-insensitively, as in SignalR). Returns an unregister function. */
  on(method: string, handler: HubMethodHandler): () => void;
  readonly events: TypedEmitter<HubServerEvents>;
  /** Connections that completed the handshake and are not closed. */
  connections(): HubConnection[];
  /** Sends every connection a Close (allowReconnect true), closes the sockets and stops all timers. */
  close(): Promise<void>;
}

const positiveMs = z.number().int().positive().max(2_147_483_647);
const optionsSchema = z.object({
  path: z
    .string()
    .regex(/^\/[^?#]*[^/?#]$/, 'must start with "/", not end with "/", and hold no query')
    .default('/hub/mcp-server'),
  /** McpPlugin.Server's MaximumReceiveMessageSize: a screenshot is 1–5 MB of base64, a scene dump more. */
  maxFrameBytes: z.number().int().min(1024).default(134_217_728),
  // McpPlugin.Server's hub options: a .NET plugin pings only every 30 s, so a 30 s timeout would cut idle plugins.
  keepAliveIntervalMs: positiveMs.default(30_000),
  clientTimeoutMs: positiveMs.default(300_000),
  handshakeTimeoutMs: positiveMs.default(15_000),
  negotiateTokenTtlMs: positiveMs.default(30_000),
  maxParallelInvocations: z.number().int().positive().default(64),
});

/** Negotiated tokens waiting for their WebSocket; past this, negotiate answers 503 until some are used or expire. */
const MAX_WAITING_TOKENS = 10_000;
/**
 * ws itself drops a WebSocket message past this size (close code 1009) without reading it. Up to
 * there the hub reads a message over maxFrameBytes, skips the records that are too large and fails
 * only the call each belonged to; beyond it, reading on would cost memory without bound. A quarter
 * over the limit, and at least a MiB over it: a 129 MB screenshot against 128 MiB fails its call only.
 */
const hardPayloadBytes = (maxFrameBytes: number) => Math.max(Math.ceil(maxFrameBytes * 1.25), maxFrameBytes + 1_048_576);

function parseOptions(options: HubServerOptions): z.output<typeof optionsSchema> {
  const { authorize: _authorize, ...rest } = options;
  const parsed = optionsSchema.safeParse(rest);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new JunctionError('ConfigInvalid', `Invalid SignalR hub options: ${detail}`);
  }
  return parsed.data;
}

function pathnameOf(req: IncomingMessage): string {
  const raw = req.url ?? '/';
  const end = raw.search(/[?#]/);
  return end === -1 ? raw : raw.slice(0, end);
}

export function createHubServer(options: HubServerOptions = {}): HubServer {
  const settings = parseOptions(options);
  const authorize = options.authorize;
  const negotiatePath = `${settings.path}/negotiate`;
  const connectionSettings: ConnectionSettings = {
    maxFrameBytes: settings.maxFrameBytes,
    keepAliveIntervalMs: settings.keepAliveIntervalMs,
    clientTimeoutMs: settings.clientTimeoutMs,
    handshakeTimeoutMs: settings.handshakeTimeoutMs,
    maxParallelInvocations: settings.maxParallelInvocations,
  };
  const events = new TypedEmitter<HubServerEvents>();
  const methods = new Map<string, HubMethodHandler>();
  const tokens = new ConnectionTokenStore(settings.negotiateTokenTtlMs, MAX_WAITING_TOKENS);
  const all = new Set<SignalRConnection>();
  const open = new Set<SignalRConnection>();
  const upgrades = new WebSocketUpgrades({ maxPayload: hardPayloadBytes(settings.maxFrameBytes), perMessageDeflate: false });
  let closing = false;

  /** A throwing listener must not unwind into the socket's event handler and take the process down. */
  function notify<K extends 'connected' | 'disconnected'>(event: K, payload: HubServerEvents[K], connection: HubConnection): void {
    try {
      events.emit(event, payload);
    } catch (error) {
      reportError(connection, event, error);
    }
  }

  function tell<K extends 'oversized' | 'malformed'>(event: K, message: HubServerEvents[K]): void {
    try {
      events.emit(event, message);
    } catch (error) {
      reportError(message.connection, event, error);
    }
  }

  function reportError(connection: HubConnection, method: string, error: unknown): void {
    try {
      events.emit('handlerError', { connection, method, error });
    } catch {
      // The error reporter itself failed; there is no one further to tell.
    }
  }

  const closingRefusal: HttpRefusal = refuse('ServerClosing', 'The hub is shutting down; reconnect later.');

  /** Runs the authorize hook; a refusal or a failing hook yields what to answer. */
  async function checkAuthorization(req: IncomingMessage): Promise<HttpRefusal | undefined> {
    if (!authorize) return undefined;
    try {
      const verdict = await authorize(req);
      return verdict.ok ? undefined : verdict;
    } catch {
      return refuse('InternalError', 'The authorization check failed.');
    }
  }

  async function negotiate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.resume();
    const refusal = await checkAuthorization(req);
    if (refusal) return replyRefusal(res, refusal);
    if (closing) return replyRefusal(res, closingRefusal);
    const requested = new URL(req.url ?? '/', 'http://localhost').searchParams.get('negotiateVersion');
    const version = selectNegotiateVersion(requested);
    if (version === undefined) {
      return replyRefusal(res, refuse('InvalidArguments', `negotiateVersion must be a non-negative integer, got '${requested}'.`));
    }
    const issued = buildNegotiation(version);
    if (!tokens.add(issued.token, issued.connectionId)) {
      return replyRefusal(res, refuse('Overloaded', 'Too many negotiated connections are waiting for their WebSocket; retry shortly.'));
    }
    replyJson(res, 200, JSON.stringify(issued.response));
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const refusal = await checkAuthorization(req);
    if (socket.destroyed) return;
    if (refusal) return refuseHubUpgrade(socket, refusal);
    if (closing) return refuseHubUpgrade(socket, closingRefusal);
    const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('id');
    const connectionId = token === null ? newOpaqueId() : tokens.consume(token);
    if (connectionId === undefined) {
      return refuseHubUpgrade(socket, refuse('ConnectionNotFound', 'The connection token is unknown, expired or already used; negotiate again.'));
    }
    await upgrades.accept(req, socket, head, (ws) => accept(ws, req, connectionId));
  }

  function accept(ws: WebSocket, req: IncomingMessage, connectionId: string): void {
    const connection = new SignalRConnection(connectionId, ws, req, connectionSettings, {
      methods: { lookup: (name) => methods.get(name.toLowerCase()) },
      handshakeCompleted: (c) => {
        open.add(c);
        notify('connected', c, c);
      },
      closed: (c, error) => {
        all.delete(c);
        if (!open.delete(c)) return;
        notify('disconnected', error === undefined ? { connection: c } : { connection: c, error }, c);
      },
      handlerError: (method, error) => reportError(connection, method, error),
      oversized: (message) => tell('oversized', message),
      malformed: (message) => tell('malformed', message),
    });
    all.add(connection);
    if (closing) connection.close(undefined, true);
  }

  return {
    events,
    maxParallelInvocations: settings.maxParallelInvocations,
    handleRequest(req, res) {
      const pathname = pathnameOf(req);
      if (pathname === negotiatePath) {
        if (req.method !== 'POST') {
          res.setHeader('allow', 'POST');
          replyRefusal(res, refuse('MethodNotAllowed', `Negotiate takes POST, not ${req.method ?? 'an unknown method'}.`));
        } else {
          void negotiate(req, res);
        }
        return true;
      }
      if (pathname === settings.path) {
        replyRefusal(
          res,
          refuse('TransportUnsupported', 'This hub accepts WebSocket connections only (send an Upgrade: websocket request); Server-Sent Events and long polling are not offered.'),
        );
        return true;
      }
      return false;
    },
    handleUpgrade(req, socket, head) {
      if (pathnameOf(req) !== settings.path) return false;
      // The socket may fail while authorization is pending; without a listener that would be an uncaught error.
      socket.on('error', () => socket.destroy());
      void upgrade(req, socket, head);
      return true;
    },
    on(method, handler) {
      const key = method.toLowerCase();
      if (methods.has(key)) throw new Error(`Hub method '${method}' is already registered.`);
      methods.set(key, handler);
      return () => {
        if (methods.get(key) === handler) methods.delete(key);
      };
    },
    connections: () => [...open].filter((c) => !c.closed),
    async close() {
      closing = true;
      tokens.clear();
      const waits = [...all].map((c) => c.whenClosed);
      for (const connection of [...all]) connection.close(undefined, true);
      await Promise.all(waits);
      await upgrades.close();
    },
  };
}
