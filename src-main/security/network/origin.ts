/**
 * DNS-rebinding and cross-site request defence for a server bound to loopback.
 *
 * A web page on evil.example can make the victim's browser resolve evil.example to 127.0.0.1 and then
 * talk to our port as if it were same-origin. The browser still sends `Host: evil.example:PORT`, so a
 * loopback server refuses every Host that is not a loopback name with our port. A page that simply
 * posts to http://127.0.0.1:PORT cross-site sends its own `Origin`, which must be loopback (or listed).
 * Non-browser clients (agents, plugins, curl) send no Origin and are allowed through to authentication.
 */
import type { IncomingMessage } from 'node:http';
import { refuse, type Refusal } from '../refusal.js';
import { isLoopbackHostName } from './loopback.js';

export interface OriginPolicy {
  /** The port the server listens on; a Host header naming another port is refused. */
  port: number;
  /** The address the server is bound to. Host checks apply only when it is loopback (default). */
  bindHost?: string;
  /** Extra Host values accepted as `name` (any port) or `name:port`, e.g. a reverse proxy's name. */
  allowedHosts?: readonly string[];
  /** Extra browser origins accepted besides loopback ones, e.g. `https://console.example`. */
  allowedOrigins?: readonly string[];
}

export type OriginCheck = { ok: true } | Refusal<'Forbidden'>;

// A Host header is a name or bracketed IPv6 literal and an optional port; anything else (userinfo,
// paths, spaces) is refused before parsing so no URL parser can be talked into a different host.
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

interface HostPort {
  name: string;
  port: number;
}

function parseHostHeader(value: string): HostPort | undefined {
  const match = HOST_HEADER.exec(value);
  if (!match) return undefined;
  const [, name = '', port] = match;
  return { name: name.toLowerCase(), port: port === undefined ? 80 : Number(port) };
}

function hostAllowed(host: HostPort, policy: OriginPolicy): boolean {
  if (isLoopbackHostName(host.name) && host.port === policy.port) return true;
  return (policy.allowedHosts ?? []).some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed === host.name || allowed === `${host.name}:${host.port}`;
  });
}

function originAllowed(origin: string, policy: OriginPolicy): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (isLoopbackHostName(url.hostname)) return true;
  return (policy.allowedOrigins ?? []).some((allowed) => {
    try {
      return new URL(allowed).origin === url.origin;
    } catch {
      return false;
    }
  });
}

export function checkOrigin(req: Pick<IncomingMessage, 'headers'>, policy: OriginPolicy): OriginCheck {
  const bindHost = policy.bindHost ?? '127.0.0.1';
  if (isLoopbackHostName(bindHost)) {
    const raw = req.headers.host;
    const host = raw === undefined ? undefined : parseHostHeader(raw);
    if (!host || !hostAllowed(host, policy)) {
      return refuse('Forbidden', `Host "${raw ?? ''}" is not this loopback server (expected 127.0.0.1:${policy.port} or localhost:${policy.port}); refusing a possible DNS-rebinding request.`);
    }
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, policy)) {
    return refuse('Forbidden', `Origin "${origin}" may not call this server; only loopback pages and configured origins may.`);
  }
  return { ok: true };
}
