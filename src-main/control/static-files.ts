/** Serves the built renderer bundle with a strict Content-Security-Policy; nothing outside staticDir is reachable. */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** `wsOrigin` widens connect-src for the browser mode's WebSocket; Electron passes none. */
export function contentSecurityPolicy(wsOrigin?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    wsOrigin ? `connect-src 'self' ${wsOrigin}` : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(wsOrigin: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(wsOrigin),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  };
}

/** Maps a URL path to a file inside staticDir, or undefined when it is not one of the bundle's files. */
export function resolveStaticFile(staticDir: string, pathname: string): string | undefined {
  const root = resolve(staticDir);
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = resolve(join(root, relative));
  if (full !== root && !full.startsWith(root + sep)) return undefined;
  try {
    return existsSync(full) && statSync(full).isFile() ? full : undefined;
  } catch {
    return undefined;
  }
}

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
}

export async function sendFile(res: ServerResponse, file: string, headers: Record<string, string>, headOnly: boolean): Promise<void> {
  const body = await readFile(file);
  res.writeHead(200, { ...headers, 'Content-Type': contentTypeFor(file), 'Content-Length': body.length });
  res.end(headOnly ? undefined : body);
}

export function sendPage(res: ServerResponse, status: number, title: string, text: string, headers: Record<string, string>): void {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
  res.writeHead(status, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
