/**
 * Per-request and per-connection facts that several HTTP rooms need, computed once. A request passes
 * the origin gate, the pin gate, health and every route's claim check; each parsing `req.url` again
 * cost a WHATWG URL parse per room per call.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { splitPinnedPath, type PinnedPath } from './project-pin.js';

const paths = new WeakMap<IncomingMessage, string>();

/**
 * A request target that the URL parser would return unchanged as its path: one leading slash (two would
 * name a host), then only characters that are never percent-encoded, decoded or normalised, and no dot
 * (so no dot segments), optionally followed by a query. Everything else takes the parser's way.
 */
const PLAIN_TARGET = /^\/(?!\/)[A-Za-z0-9\-_~!$&'()*+,;=:@/]*(?:\?|$)/;

/** The path of a request target, exactly as `new URL(target, 'http://localhost').pathname` reads it. */
export function pathOfTarget(target: string): string {
  const plain = PLAIN_TARGET.exec(target);
  if (plain) return plain[0].endsWith('?') ? plain[0].slice(0, -1) : plain[0];
  return new URL(target, 'http://localhost').pathname;
}

/** The request's normalised path (dot segments resolved, no query), as `new URL` reads it. */
export function requestPath(req: IncomingMessage): string {
  let path = paths.get(req);
  if (path === undefined) {
    path = pathOfTarget(req.url ?? '/');
    paths.set(req, path);
  }
  return path;
}

const routes = new WeakMap<IncomingMessage, PinnedPath>();

/** The request's path split at its `/p/{pin}` prefix (see `splitPinnedPath`). */
export function requestRoute(req: IncomingMessage): PinnedPath {
  let route = routes.get(req);
  if (route === undefined) {
    route = splitPinnedPath(requestPath(req));
    routes.set(req, route);
  }
  return route;
}

const hangUps = new WeakMap<Socket, AbortSignal>();

/**
 * Aborts when the client's connection closes. An HTTP/1.1 client cannot cancel one request without
 * closing its connection, so this is exactly "the caller hung up" for every request the connection
 * carries; one signal per connection instead of an AbortController and a `close` listener per call.
 * Callers register through `onAbort`, which keeps a single listener on it however many calls it serves.
 */
export function hangUpSignal(req: IncomingMessage): AbortSignal {
  const socket = req.socket;
  let signal = hangUps.get(socket);
  if (signal === undefined) {
    const controller = new AbortController();
    signal = controller.signal;
    hangUps.set(socket, signal);
    if (socket.destroyed) controller.abort();
    else socket.once('close', () => controller.abort());
  }
  return signal;
}
