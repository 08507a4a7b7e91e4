/**
 * The question an external authorization service answers for each connection. The bridge's
 * authorization webhook implements the gate; the authenticator only knows this interface.
 */
export type AuthorizationClientType = 'ai-agent' | 'plugin';

export interface AuthorizationRequest {
  clientType: AuthorizationClientType;
  connectionId: string;
  bearerToken: string | null;
  remoteIpAddress: string | null;
  userAgent: string | null;
  /** Path only: the query is dropped so a hub `access_token` is never repeated in a second place. */
  requestPath: string | null;
  clientName: string | null;
  clientVersion: string | null;
}

export type AuthorizationDecision =
  | { allowed: true; via: 'webhook' | 'fail-open' }
  | { allowed: false; via: 'webhook' | 'fail-closed'; reason: string };

export interface AuthorizationGate {
  authorize(request: AuthorizationRequest): Promise<AuthorizationDecision>;
}
