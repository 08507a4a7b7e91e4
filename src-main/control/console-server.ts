/**
 * Browser adapter for the control room: serves the renderer bundle and the `/control` WebSocket on the
 * composition root's HTTP server, for token holders on the console's own loopback origin only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex, Writable } from 'node:stream';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { CallStatus, ControlReplyMessage } from '../contracts/index.js';
import { loopbackHost, originAllowed, presentedToken, tokenCookie, tokensEqual } from './console-auth.js';
import { DEFAULT_FRAME_SENDER_LIMITS, FrameSender, type FrameSenderLimits, type FrameSenderStats } from './frame-sender.js';
import type { ControlHub } from './hub.js';
import { resolveStaticFile, securityHeaders, sendFile, sendPage } from './static-files.js';
import { refuseUpgrade, WebSocketUpgrades } from '../shared/index.js';

export const CONTROL_SOCKET_PATH = '/control';
/** The console's Export button downloads from here (cookie-authenticated like the bundle). */
export const AUDIT_EXPORT_PATH = '/audit/export';

export interface AuditExportRequest {
  format: 'jsonl' | 'csv';
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  /**
   * The console's current filter: only the calls it matches (no events), as the history search finds
   * them; `refused` tells calls the policy or operator refused (true) from those that ran and failed (false).
   */
  filter?: AuditExportFilter;
}

export interface AuditExportFilter {
  text?: string;
  status?: CallStatus;
  refused?: boolean;
}
const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface ConsoleServerOptions {
  hub: ControlHub;
  token: string;
  staticDir: string;
  limits?: Partial<FrameSenderLimits>;
  /** Streams the audit trail; absent when the trail is off. */
  exportAudit?: (request: AuditExportRequest, out: Writable) => Promise<number>;
}

export interface ConsoleServer {
  /** True when the request was the console's (bundle or its refusal); false leaves it to other routes. */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /** True when the upgrade was for `/control` (accepted or refused); false leaves it to other routes. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Flow-control counters per connected client, for tests and the status view. */
  clientStats(): FrameSenderStats[];
  /** Closes every console socket. */
  close(): Promise<void>;
}

const requestSchema = z.object({
  id: z.union([z.number(), z.string().max(128)]),
  command: z.string().max(64),
  args: z.unknown().optional(),
});

const epochMs = z.coerce.number().int().optional();
const exportQuery = z
  .object({
    format: z.enum(['jsonl', 'csv']).default('jsonl'),
    since: epochMs,
    until: epochMs,
    text: z.string().max(256).optional(),
    status: z.enum(['running', 'ok', 'error']).optional(),
    refused: z.enum(['true', 'false']).optional(),
  })
  .strict();

function requestUrl(req: IncomingMessage): URL {
  return new URL(req.url ?? '/', 'http://console.invalid');
}

function isConsolePath(staticDir: string, pathname: string): boolean {
  return pathname === '/' || pathname === AUDIT_EXPORT_PATH || pathname === '/index.html' || pathname.startsWith('/assets/') || resolveStaticFile(staticDir, pathname) !== undefined;
}

export function createConsoleServer(options: ConsoleServerOptions): ConsoleServer {
  const { hub, token, staticDir } = options;
  const limits = { ...DEFAULT_FRAME_SENDER_LIMITS, ...options.limits };
  const upgrades = new WebSocketUpgrades({ maxPayload: MAX_MESSAGE_BYTES });
  const senders = new Map<WebSocket, FrameSender>();

  function authorised(req: IncomingMessage, url: URL): boolean {
    const presented = presentedToken(req, url);
    return tokensEqual(token, presented.queryToken) || tokensEqual(token, presented.cookieToken);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, url: URL, host: string): Promise<void> {
    const headers = securityHeaders(`ws://${host}`);
    const presented = presentedToken(req, url);
    if (presented.queryToken !== undefined) {
      if (!tokensEqual(token, presented.queryToken)) {
        sendPage(res, 'Unauthorized', 'This console link is not valid', [
          "Its token is not this launch's: Junction makes a new console token every time it starts, so a link from an earlier run stops working.",
          'Open the console URL Junction printed when it started (it ends in <code>/?token=…</code>).',
        ], headers);
        return;
      }
      // The token leaves the address bar (and history) at once; from here on the cookie carries it. The
      // rest of the query stays: an export link's format and window are the request itself.
      const rest = new URLSearchParams(url.searchParams);
      rest.delete('token');
      const query = rest.toString();
      res.writeHead(303, { ...headers, 'Set-Cookie': tokenCookie(req.socket.localPort ?? 0, token), Location: query ? `${url.pathname}?${query}` : url.pathname });
      res.end();
      return;
    }
    if (!tokensEqual(token, presented.cookieToken)) {
      sendPage(res, 'Unauthorized', 'Open the console with its link', [
        'Open the console URL Junction printed when it started (it ends in <code>/?token=…</code>).',
        'That token is made anew each launch and stays valid until Junction stops, so the link works in any number of tabs meanwhile; on first use it moves from the address bar into a cookie for this browser.',
      ], headers);
      return;
    }
    if (url.pathname === AUDIT_EXPORT_PATH) {
      await serveExport(res, url, headers);
      return;
    }
    const file = resolveStaticFile(staticDir, url.pathname);
    if (!file) {
      const missingBundle = url.pathname === '/' || url.pathname === '/index.html';
      sendPage(res, missingBundle ? 'ConsoleNotBuilt' : 'ResourceNotFound', missingBundle ? 'Console not built' : 'Not found', missingBundle ? 'The renderer bundle is missing; build it with npm run build:renderer.' : 'No such console file.', headers);
      return;
    }
    await sendFile(res, file, headers, req.method === 'HEAD');
  }

  async function serveExport(res: ServerResponse, url: URL, headers: Record<string, string>): Promise<void> {
    if (!options.exportAudit) {
      sendPage(res, 'ResourceNotFound', 'No audit trail', 'The audit trail is off (audit=false).', headers);
      return;
    }
    const parsed = exportQuery.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) {
      sendPage(res, 'InvalidRequest', 'Bad export request', 'format is jsonl or csv; since and until are epoch milliseconds; text, status (running, ok, error) and refused (true, false) filter calls.', headers);
      return;
    }
    const { format, since, until, text, status, refused } = parsed.data;
    const filter: AuditExportFilter = { ...(text?.trim() ? { text: text.trim() } : {}), ...(status ? { status } : {}), ...(refused ? { refused: refused === 'true' } : {}) };
    res.writeHead(200, {
      ...headers,
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="junction-audit.${format}"`,
      'Cache-Control': 'no-store',
    });
    await options.exportAudit({ format, ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}), ...(Object.keys(filter).length > 0 ? { filter } : {}) }, res);
    res.end();
  }

  function attachClient(ws: WebSocket): void {
    const sender = new FrameSender(
      { write: (text, done) => ws.send(text, () => done()) },
      () => hub.snapshotFrame(),
      limits,
    );
    senders.set(ws, sender);
    const detach = hub.attach((frame) => sender.push(frame));
    ws.on('message', (data, isBinary) => {
      void answer(ws, isBinary ? undefined : data.toString());
    });
    ws.on('close', () => {
      detach();
      sender.close();
      senders.delete(ws);
    });
    ws.on('error', () => ws.terminate());
  }

  async function answer(ws: WebSocket, text: string | undefined): Promise<void> {
    let parsed: unknown;
    try {
      parsed = text === undefined ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const request = requestSchema.safeParse(parsed);
    let reply: ControlReplyMessage;
    if (!request.success) {
      reply = { id: null, result: { ok: false, error: { code: 'InvalidArguments', message: 'A console message is JSON text { id, command, args }.' } } };
    } else {
      reply = { id: request.data.id, result: await hub.execute(request.data.command, request.data.args) };
    }
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
  }

  return {
    handleRequest(req, res) {
      const url = requestUrl(req);
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !isConsolePath(staticDir, url.pathname)) return false;
      const host = loopbackHost(req);
      if (!host) {
        sendPage(res, 'Forbidden', 'Forbidden', 'The console is served on its loopback address only.', securityHeaders("'none'"));
        return true;
      }
      serve(req, res, url, host).catch(() => {
        if (!res.headersSent) sendPage(res, 'InternalError', 'Console error', 'The console bundle could not be read.', securityHeaders(`ws://${host}`));
        else res.destroy();
      });
      return true;
    },
    handleUpgrade(req, socket, head) {
      const url = requestUrl(req);
      if (url.pathname !== CONTROL_SOCKET_PATH) return false;
      const host = loopbackHost(req);
      if (!host || !originAllowed(req, host)) {
        refuseUpgrade(socket, { code: 'Forbidden', message: 'The console socket accepts its own loopback origin only.' });
        return true;
      }
      if (!authorised(req, url)) {
        refuseUpgrade(socket, { code: 'Unauthorized', message: 'A valid console token is required.' });
        return true;
      }
      // The socket may fail while the WebSocket module loads; without a listener that would be an uncaught error.
      socket.on('error', () => socket.destroy());
      void upgrades.accept(req, socket, head, attachClient);
      return true;
    },
    clientStats() {
      return [...senders.values()].map((s) => ({ ...s.stats }));
    },
    async close() {
      for (const ws of senders.keys()) ws.terminate();
      await upgrades.close();
    },
  };
}
