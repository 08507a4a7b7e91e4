/** Where a client's bearer token travels, per kind of client. */
import type { IncomingMessage } from 'node:http';

export type ClientKind = 'agent' | 'plugin';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

function fromAuthorizationHeader(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return BEARER.exec(value)?.[1];
}

/**
 * Browsers cannot set headers on a WebSocket upgrade, so SignalR's JavaScript client sends the token as
 * the `access_token` query parameter on the hub URL. Only the hub (plugins) accepts it: for agents a
 * token in a URL would end up in logs and history for no benefit, since every agent client can send
 * headers.
 */
function fromQuery(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const token = new URL(url, 'http://localhost').searchParams.get('access_token');
  return token === null || token === '' ? undefined : token;
}

/** The bearer token a request presents, or undefined. The Authorization header wins over the query. */
export function presentedToken(req: Pick<IncomingMessage, 'headers' | 'url'>, kind: ClientKind): string | undefined {
  return fromAuthorizationHeader(req.headers.authorization) ?? (kind === 'plugin' ? fromQuery(req.url) : undefined);
}
