/**
 * Who may reach which route. Every request first passes the DNS-rebinding Host/Origin check; agents on
 * /mcp and /api then authenticate (the authorization webhook is asked once per new agent connection,
 * i.e. per MCP session or per direct call, never per message); plugins authenticate at the hub.
 * The console guards itself with its own per-launch token.
 */
import type { IncomingMessage } from 'node:http';
import { projectIdentityOf } from '../bridge/projects/index.js';
import { checkOrigin, refuse, type Authenticator } from '../security/index.js';
import { requestPath, requestRoute } from '../shared/index.js';
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
/** The plugin hub (negotiate and WebSocket upgrade) follows the agent routes' origin policy. */
const HUB_PATH = /^\/hub(\/|$)/;

/** The route an agent path serves once its `/p/{pin}` prefix is off; a malformed pin still counts as an agent path. */
function agentRoute(req: IncomingMessage, path: string): string | undefined {
  const route = requestRoute(req);
  if (route.kind === 'malformed') return path;
  return AGENT_PATHS.test(route.rest) ? route.rest : undefined;
}

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
    if (!origin.ok) return { ok: false, error: { code: origin.code, message: origin.message } };
    const rawPath = requestPath(req);
    const path = agentRoute(req, rawPath);
    if (path === undefined && !HUB_PATH.test(rawPath)) return { ok: true };
    const foreign = foreignOriginOnBridgeRoute(req, options.port());
    if (foreign) return { ok: false, error: { code: 'Forbidden', message: `Browser origin ${foreign} may not call agent endpoints or the plugin hub.` } };
    // Plugins authenticate at the hub itself.
    if (path === undefined) return { ok: true };
    const continuingSession = path === '/mcp' && req.headers['mcp-session-id'] !== undefined;
    const verdict = await (continuingSession ? options.tokenOnly : options.full).authenticate(req, 'agent');
    if (verdict.ok) return { ok: true };
    return { ok: false, error: { code: verdict.code, message: verdict.message } };
  };
}

/**
 * For the hub: negotiate needs only the token; the WebSocket upgrade is the connection the webhook gates.
 * An authenticated plugin whose project fields (hub query) are malformed is refused with 400
 * `InvalidProjectMetadata` at negotiate and at the upgrade, before it holds a connection.
 */
export function pluginAuthorizer(options: Pick<AccessOptions, 'tokenOnly' | 'full'> & { refused?: (key: string, message: string) => void }) {
  return async (req: IncomingMessage) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const negotiating = url.pathname.endsWith('/negotiate');
    const verdict = await (negotiating ? options.tokenOnly : options.full).authenticate(req, 'plugin');
    if (!verdict.ok) return verdict;
    const identity = projectIdentityOf(url.searchParams);
    if (identity.ok) return { ok: true } as const;
    options.refused?.(`project:${identity.field}:${url.searchParams.get(identity.field) ?? ''}`, `refused a plugin connection: ${identity.message}`);
    return refuse('InvalidProjectMetadata', identity.message);
  };
}
