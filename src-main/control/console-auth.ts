/**
 * Who may open the browser console: holders of the instance token, on the console's own loopback origin.
 * Pure checks over request headers; the server decides what to answer.
 */
import type { IncomingMessage } from 'node:http';
import { constantTimeEqual } from '../security/index.js';

/** A presented console token matches only when non-empty and equal in constant time. */
export function tokensEqual(expected: string, presented: string | undefined): boolean {
  return presented !== undefined && presented.length > 0 && constantTimeEqual(expected, presented);
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    try {
      out.set(name, decodeURIComponent(raw));
    } catch {
      out.set(name, raw);
    }
  }
  return out;
}

/** Cookies are not port-scoped, so two instances on one host each get their own name. */
export function tokenCookieName(port: number): string {
  return `junction_console_${port}`;
}

export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port)}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
}

const LOOPBACK_HOST = /^(?:127(?:\.\d{1,3}){3}|localhost|\[::1\]):(\d{1,5})$/i;

/**
 * The request's Host if it names a loopback address on the port the request actually arrived on;
 * anything else (a rebinding DNS name, a proxy) is refused.
 */
export function loopbackHost(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  if (!host) return undefined;
  const match = LOOPBACK_HOST.exec(host);
  if (!match || Number(match[1]) !== req.socket.localPort) return undefined;
  return host.toLowerCase();
}

export interface Presented {
  queryToken: string | undefined;
  cookieToken: string | undefined;
}

export function presentedToken(req: IncomingMessage, url: URL): Presented {
  const cookies = parseCookies(req.headers.cookie);
  return {
    queryToken: url.searchParams.get('token') ?? undefined,
    cookieToken: cookies.get(tokenCookieName(req.socket.localPort ?? 0)),
  };
}

/** The one Origin a console WebSocket may come from: the page the server itself served. */
export function originAllowed(req: IncomingMessage, host: string): boolean {
  return req.headers.origin === `http://${host}`;
}
