/**
 * Which agents are connected, in McpPlugin's `McpClientData` terms, so plugins can be told as agents
 * come and go. An MCP session (HTTP, the stdio relay, in-process stdio) is present from its
 * `initialized` notification until it closes; a direct HTTP API caller and a stateless (2026-07-28)
 * MCP agent have no session, so each is present from its first request until it has been idle for
 * `apiIdleMs`.
 */
import { createHash } from 'node:crypto';
import { boundedText, TypedEmitter, VIEW_TEXT_CHARS } from '../../shared/index.js';
import type { AgentTransport } from '../../contracts/index.js';

/** McpPlugin's `McpClientData`: explicit camelCase names on the wire; unset fields are left out. */
export interface McpClientData {
  isConnected: boolean;
  sessionId?: string;
  clientTitle?: string;
  clientName?: string;
  clientVersion?: string;
  clientDescription?: string;
  clientWebsiteUrl?: string;
}

/** McpPlugin's `McpServerData`, exactly these four fields. */
export interface McpServerData {
  serverVersion: string;
  serverApiVersion: string;
  serverTransport: 'stdio' | 'streamableHttp';
  isAiAgentConnected: boolean;
}

export interface AgentClientInfo {
  name?: string;
  version?: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
}

export interface AgentSession {
  sessionId: string;
  transport: AgentTransport;
  pin?: string;
  client: AgentClientInfo;
  /** The MCP revision it speaks, where known. */
  protocolVersion?: string;
  /** For an agent without a session (direct API callers, stateless MCP requests): the label its calls carry. */
  callLabel?: string;
}

/** A stateless MCP request's agent: known by its name on its route, present while it keeps calling. */
export interface StatelessAgentInfo {
  client: { name: string; version: string } | undefined;
  pin?: string;
  protocolVersion: string;
  callLabel: string;
}

/** A session as presence keeps it: since when it is present. */
export interface PresentAgent extends AgentSession {
  connectedAt: number;
}

export interface PresenceEvents {
  connected: { agent: McpClientData; all: McpClientData[] };
  disconnected: { agent: McpClientData; remaining: McpClientData[] };
}

const MAX_API_AGENTS = 1_000;

/**
 * Agents name themselves; what reaches plugins and the console is bounded, free of control characters,
 * and a copy of its own (a session outlives the initialize request its names were parsed from).
 */
function clean(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value.replace(/\p{Cc}/gu, ' ').trim();
  return text === '' ? undefined : boundedText(text, VIEW_TEXT_CHARS);
}

function cleanClient(client: AgentClientInfo): AgentClientInfo {
  const fields = Object.entries({ name: client.name, version: client.version, title: client.title, description: client.description, websiteUrl: client.websiteUrl }).map(([key, value]) => [key, clean(value)] as const);
  return Object.fromEntries(fields.filter(([, value]) => value !== undefined));
}

export function clientData(session: AgentSession, isConnected: boolean): McpClientData {
  const fields: Array<[keyof McpClientData, string | undefined]> = [
    ['clientTitle', clean(session.client.title)],
    ['clientName', clean(session.client.name)],
    ['clientVersion', clean(session.client.version)],
    ['clientDescription', clean(session.client.description)],
    ['clientWebsiteUrl', clean(session.client.websiteUrl)],
  ];
  return { isConnected, sessionId: session.sessionId, ...Object.fromEntries(fields.filter(([, v]) => v !== undefined)) };
}

export class AgentPresence {
  readonly events = new TypedEmitter<PresenceEvents>();
  private readonly sessions = new Map<string, PresentAgent>();
  private readonly apiLastSeen = new Map<string, number>();
  private readonly apiSessionIds = new Map<string, string>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly options: { apiIdleMs: number; now?: () => number }) {
    this.sweep = setInterval(() => this.expireApiAgents(), Math.max(250, Math.min(options.apiIdleMs / 2, 30_000)));
    this.sweep.unref();
  }

  opened(opened: AgentSession): void {
    // The label is bounded as the dispatcher bounds a call's agent, so the two still match.
    const callLabel = opened.callLabel === undefined ? {} : { callLabel: boundedText(opened.callLabel, VIEW_TEXT_CHARS) };
    const session = { ...opened, client: cleanClient(opened.client), ...callLabel, connectedAt: this.now() };
    this.sessions.delete(session.sessionId);
    this.sessions.set(session.sessionId, session);
    this.events.emit('connected', { agent: clientData(session, true), all: this.clients() });
  }

  closed(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    this.apiLastSeen.delete(sessionId);
    this.events.emit('disconnected', { agent: clientData(session, false), remaining: this.clients() });
  }

  /** A direct HTTP API call by `agent` (its label: address and user agent). */
  apiCall(agent: string): void {
    this.sessionless('api', agent, () => ({ transport: 'http-api', client: { name: agent, title: 'Direct HTTP API' }, callLabel: agent }));
  }

  /** A stateless MCP request: its agent is the client it names on its route. */
  statelessCall(agent: StatelessAgentInfo): void {
    const key = `${agent.pin ?? ''}\n${agent.client?.name ?? ''}\n${agent.client?.version ?? ''}\n${agent.protocolVersion}`;
    this.sessionless('mcp', key, () => ({
      transport: 'mcp-http',
      client: agent.client ?? {},
      ...(agent.pin !== undefined ? { pin: agent.pin } : {}),
      protocolVersion: agent.protocolVersion,
      callLabel: agent.callLabel,
    }));
  }

  /** Present from its first request (known by `kind` and `key`) until idle for `apiIdleMs`, the oldest going first beyond the bound. */
  private sessionless(kind: 'api' | 'mcp', key: string, session: () => Omit<AgentSession, 'sessionId'>): void {
    const sessionId = this.sessionlessId(kind, key);
    const now = this.now();
    const known = this.apiLastSeen.has(sessionId);
    this.apiLastSeen.delete(sessionId);
    this.apiLastSeen.set(sessionId, now);
    if (known) return;
    if (this.apiLastSeen.size > MAX_API_AGENTS) {
      const oldest = this.apiLastSeen.keys().next().value;
      if (oldest !== undefined) this.closed(oldest);
    }
    this.opened({ sessionId, ...session() });
  }

  /** A sessionless agent's stable id; hashed once per key, not per request. */
  private sessionlessId(kind: 'api' | 'mcp', key: string): string {
    const known = `${kind}\n${key}`;
    let sessionId = this.apiSessionIds.get(known);
    if (sessionId === undefined) {
      sessionId = `${kind}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
      if (this.apiSessionIds.size >= MAX_API_AGENTS) this.apiSessionIds.clear();
      this.apiSessionIds.set(known, sessionId);
    }
    return sessionId;
  }

  /** Ends the presence of API callers idle for longer than `apiIdleMs`. */
  expireApiAgents(): void {
    const cutoff = this.now() - this.options.apiIdleMs;
    for (const [sessionId, seen] of [...this.apiLastSeen]) if (seen <= cutoff) this.closed(sessionId);
  }

  clients(): McpClientData[] {
    return [...this.sessions.values()].map((s) => clientData(s, true));
  }

  agents(): PresentAgent[] {
    return [...this.sessions.values()];
  }

  serverData(base: Omit<McpServerData, 'isAiAgentConnected'>): McpServerData {
    return { ...base, isAiAgentConnected: this.sessions.size > 0 };
  }

  dispose(): void {
    clearInterval(this.sweep);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
