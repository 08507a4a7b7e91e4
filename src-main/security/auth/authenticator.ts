/**
 * Decides whether one HTTP request (an agent on /mcp or /api, a plugin on the hub) may proceed.
 * Order: the local token check (mode `token`) first, so a wrong token never reaches the webhook;
 * then the authorization webhook, when configured, in either mode.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { JunctionError } from '../../contracts/index.js';
import { refuse, type Refusal } from '../refusal.js';
import type { AuthMode } from '../network/index.js';
import type { AuthorizationDecision, AuthorizationGate, AuthorizationRequest } from './authorization.js';
import { constantTimeEqual } from './constant-time.js';
import { presentedToken, type ClientKind } from './credentials.js';
import { errorMessage } from '../../shared/index.js';

export interface AuthenticatorOptions {
  mode: AuthMode;
  token?: string | undefined;
  webhook?: AuthorizationGate | undefined;
}

/** What the caller knows about the connection beyond the HTTP request (plugins report name and version later). */
export interface AuthenticationContext {
  connectionId?: string;
  clientName?: string;
  clientVersion?: string;
}

export interface Principal {
  kind: ClientKind;
  connectionId: string;
  authenticatedBy: AuthMode;
  /** Set when the authorization webhook took part; `fail-open` means it could not be asked. */
  authorizedBy?: 'webhook' | 'fail-open';
  remoteAddress?: string;
}

export type AuthenticationResult = { ok: true; principal: Principal } | Refusal<'Unauthorized'> | Refusal<'Forbidden'>;

export interface Authenticator {
  readonly mode: AuthMode;
  authenticate(req: IncomingMessage, kind: ClientKind, context?: AuthenticationContext): Promise<AuthenticationResult>;
}

function pathOf(url: string | undefined): string | null {
  return url === undefined ? null : new URL(url, 'http://localhost').pathname;
}

function authorizationRequest(req: IncomingMessage, kind: ClientKind, connectionId: string, token: string | undefined, context: AuthenticationContext): AuthorizationRequest {
  return {
    clientType: kind === 'agent' ? 'ai-agent' : 'plugin',
    connectionId,
    bearerToken: token ?? null,
    remoteIpAddress: req.socket.remoteAddress ?? null,
    userAgent: req.headers['user-agent'] ?? null,
    requestPath: pathOf(req.url),
    clientName: context.clientName ?? null,
    clientVersion: context.clientVersion ?? null,
  };
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { mode, webhook } = options;
  const expected = options.token;
  if (mode === 'token' && !expected) {
    throw new JunctionError('ConfigInvalid', 'Authentication mode "token" needs a non-empty token.');
  }

  async function authenticate(req: IncomingMessage, kind: ClientKind, context: AuthenticationContext = {}): Promise<AuthenticationResult> {
    const token = presentedToken(req, kind);
    if (mode === 'token') {
      if (token === undefined) {
        const where = kind === 'plugin' ? 'an Authorization: Bearer header or access_token query parameter' : 'an Authorization: Bearer header';
        return refuse('Unauthorized', `This server requires a token: send it in ${where}.`);
      }
      if (!constantTimeEqual(token, expected ?? '')) return refuse('Unauthorized', 'The bearer token is not valid for this server.');
    }
    const connectionId = context.connectionId ?? randomUUID();
    const principal: Principal = { kind, connectionId, authenticatedBy: mode };
    if (req.socket.remoteAddress !== undefined) principal.remoteAddress = req.socket.remoteAddress;
    if (!webhook) return { ok: true, principal };

    let decision: AuthorizationDecision;
    try {
      decision = await webhook.authorize(authorizationRequest(req, kind, connectionId, token, context));
    } catch (error) {
      // The gate is meant to turn every failure into a decision; if it throws anyway, refuse.
      return refuse('Forbidden', `Authorization could not be decided: ${errorMessage(error)}`);
    }
    if (!decision.allowed) return refuse('Forbidden', `Authorization denied: ${decision.reason}`);
    return { ok: true, principal: { ...principal, authorizedBy: decision.via } };
  }

  return { mode, authenticate };
}
