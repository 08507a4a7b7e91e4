/**
 * Who may reach which route. Every request first passes the DNS-rebinding Host/Origin check; agents on
 * /mcp and /api then authenticate (the authorization webhook is asked once per new agent connection,
 * i.e. per MCP session or per direct call, never per message); plugins authenticate at the hub.
 * The console guards itself with its own per-launch token.
 */
import type { IncomingMessage } from 'node:http';
import { checkOrigin, type Authenticator } from '../security/index.js';
import type { RequestGate } from './http/server.js';

export interface AccessOptions {
  port: () => number;
  bindHost: string;
  /** Token check only. */
  tokenOnly: Authenticator;
  /** Token check plus the authorization webhook when configured. */
  full: Authenticator;
}

const AGENT_PATHS = /^\/(mcp|api)(\/|$)/;
/** Agent routes and the plugin hub (negotiate and WebSocket upgrade): one origin policy for all. */
const BRIDGE_PATHS = /^\/(mcp|api|hub)(\/|$)/;

/**
 * A browser page on another loopback port (any local dev server) passes the general Origin check, but
 * must not drive agent endpoints or register tools on the hub: a form POST needs no CORS preflight and
 * a WebSocket is never subject to CORS. These routes accept no Origin (non-browser clients) or our own
 * origin only.
 */
function foreignOriginOnBridgeRoute(req: IncomingMessage, port: number): string | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const own = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
  return own.includes(origin.toLowerCase()) ? undefined : origin;
}

export function createAccessGate(options: AccessOptions): RequestGate {
  return async (req: IncomingMessage) => {
    const origin = checkOrigin(req, { port: options.port(), bindHost: options.bindHost });
    if (!origin.ok) return { ok: false, status: origin.status, error: { code: origin.code, message: origin.message } };
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (!BRIDGE_PATHS.test(path)) return { ok: true };
    const foreign = foreignOriginOnBridgeRoute(req, options.port());
    if (foreign) return { ok: false, status: 403, error: { code: 'Forbidden', message: `Browser origin ${foreign} may not call agent endpoints or the plugin hub.` } };
    if (!AGENT_PATHS.test(path)) return { ok: true };
    const continuingSession = path === '/mcp' && req.headers['mcp-session-id'] !== undefined;
    const verdict = await (continuingSession ? options.tokenOnly : options.full).authenticate(req, 'agent');
    if (verdict.ok) return { ok: true };
    return { ok: false, status: verdict.status, error: { code: verdict.code, message: verdict.message } };
  };
}

/** For the hub: negotiate needs only the token; the WebSocket upgrade is the connection the webhook gates. */
export function pluginAuthorizer(options: Pick<AccessOptions, 'tokenOnly' | 'full'>) {
  return async (req: IncomingMessage) => {
    const negotiating = new URL(req.url ?? '/', 'http://localhost').pathname.endsWith('/negotiate');
    const verdict = await (negotiating ? options.tokenOnly : options.full).authenticate(req, 'plugin');
    return verdict.ok ? ({ ok: true } as const) : { ok: false as const, status: verdict.status, code: verdict.code, message: verdict.message };
  };
}
