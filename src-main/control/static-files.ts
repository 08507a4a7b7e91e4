/** Serves the built renderer bundle with a strict Content-Security-Policy; nothing outside staticDir is reachable. */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { httpStatusOf, type ErrorCode } from '../contracts/index.js';

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

/** The console's look (palette, type) for the pages Junction answers with itself: refusals and errors. */
const PAGE_STYLE = [
  ':root { color-scheme: light dark; --bg: #f7f7f9; --panel: #ffffff; --fg: #1b1d22; --muted: #5d6470; --border: #d5d8de; --accent: #2459c7; }',
  '@media (prefers-color-scheme: dark) { :root { --bg: #15171b; --panel: #1e2127; --fg: #e6e8ec; --muted: #9aa2ae; --border: #363b44; --accent: #6f9bff; } }',
  "body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }",
  'main { max-width: 34rem; margin: 1.5rem; padding: 1.5rem 1.75rem; background: var(--panel); border: 1px solid var(--border); border-top: 4px solid var(--accent); border-radius: 8px; }',
  'h1 { margin: 0 0 0.5rem; font-size: 1.25rem; } p { margin: 0.5rem 0 0; } .brand { color: var(--muted); font-size: 0.85rem; letter-spacing: 0.04em; text-transform: uppercase; }',
  "code { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; font-size: 0.9em; white-space: nowrap; }",
].join('\n');

/**
 * A page needs no script, image or connection: its CSP allows exactly its one stylesheet, by hash,
 * whatever the bundle's policy says.
 */
const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A page for a person at a browser: the status is the error table's for its code, and the code is on the
 * page and in `X-Junction-Error`, so a report names the same code an agent or script would see.
 */
export function sendPage(res: ServerResponse, code: ErrorCode, title: string, paragraphs: string | readonly string[], headers: Record<string, string>): void {
  const text = (typeof paragraphs === 'string' ? [paragraphs] : paragraphs).map((p) => `<p>${p}</p>`).join('');
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Junction</title><style>${PAGE_STYLE}</style></head><body><main><div class="brand">Junction console</div><h1>${title}</h1>${text}<p class="code">Error code <code>${code}</code></p></main></body></html>`;
  res.writeHead(httpStatusOf({ code }), { ...headers, 'Content-Security-Policy': PAGE_CSP, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Junction-Error': code });
  res.end(body);
}
