/**
 * Serves the renderer bundle to the window over a private `app://` scheme with the same strict CSP as
 * the browser mode; nothing else is loaded, so the window never shows remote content.
 */
import { readFile } from 'node:fs/promises';
import { protocol, session } from 'electron';
import { contentSecurityPolicy, contentTypeFor, resolveStaticFile } from '../control/index.js';
import { APP_SCHEME } from './channels.js';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.host === 'console' ? resolveStaticFile(rendererDir, url.pathname) : undefined;
    if (!file) return new Response('Not found', { status: 404 });
    return new Response(await readFile(file), {
      headers: { 'Content-Type': contentTypeFor(file), 'Content-Security-Policy': contentSecurityPolicy(), 'X-Content-Type-Options': 'nosniff' },
    });
  });
  // Belt and braces: the renderer has no reason to reach the network or ask for device permissions.
  session.defaultSession.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] }, (_details, callback) => callback({ cancel: true }));
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
}
