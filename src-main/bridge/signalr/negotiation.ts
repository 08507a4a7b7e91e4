/**
 * The negotiate step of the SignalR transport protocol: version selection, the response body, and
 * the store of issued connection tokens. Pure: time comes from the caller's clock.
 */
import { randomBytes } from 'node:crypto';

export const MAX_NEGOTIATE_VERSION = 1;

export interface NegotiateResponse {
  negotiateVersion: number;
  connectionId: string;
  connectionToken?: string;
  availableTransports: { transport: 'WebSockets'; transferFormats: ['Text'] }[];
}

/** Missing means 0 (per the spec); a higher version than ours is answered with ours. */
export function selectNegotiateVersion(raw: string | null): number | undefined {
  if (raw === null || raw === '') return 0;
  if (!/^\d{1,9}$/.test(raw)) return undefined;
  return Math.min(Number(raw), MAX_NEGOTIATE_VERSION);
}

export function newOpaqueId(): string {
  return randomBytes(16).toString('base64url');
}

export interface IssuedConnection {
  connectionId: string;
  token: string;
  response: NegotiateResponse;
}

export function buildNegotiation(version: number): IssuedConnection {
  const connectionId = newOpaqueId();
  const availableTransports: NegotiateResponse['availableTransports'] = [{ transport: 'WebSockets', transferFormats: ['Text'] }];
  // Version 0 has no separate token: the client connects with `id=<connectionId>`.
  if (version === 0) return { connectionId, token: connectionId, response: { negotiateVersion: 0, connectionId, availableTransports } };
  const token = newOpaqueId();
  return { connectionId, token, response: { negotiateVersion: version, connectionId, connectionToken: token, availableTransports } };
}

/**
 * Tokens from negotiate wait here until their WebSocket arrives. Each is single use and expires,
 * so a leaked or replayed token cannot open a second connection.
 */
export class ConnectionTokenStore {
  private readonly tokens = new Map<string, { connectionId: string; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxTokens: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** False when too many tokens are waiting, so a negotiate flood cannot grow memory without bound. */
  add(token: string, connectionId: string): boolean {
    this.prune();
    if (this.tokens.size >= this.maxTokens) return false;
    this.tokens.set(token, { connectionId, expiresAt: this.now() + this.ttlMs });
    return true;
  }

  /** Returns the connection id the token was issued for and forgets the token; undefined when unknown, used or expired. */
  consume(token: string): string | undefined {
    const entry = this.tokens.get(token);
    if (!entry) return undefined;
    this.tokens.delete(token);
    return entry.expiresAt > this.now() ? entry.connectionId : undefined;
  }

  get size(): number {
    return this.tokens.size;
  }

  clear(): void {
    this.tokens.clear();
  }

  private prune(): void {
    const now = this.now();
    for (const [token, entry] of this.tokens) if (entry.expiresAt <= now) this.tokens.delete(token);
  }
}
