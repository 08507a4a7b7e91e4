/**
 * What the session factory (server.ts) and the session builder it loads with the first session
 * (session-server.ts) share: the parts every session is served over, how a session is known, and the
 * factory's table of live sessions. Types only, so the factory can name them without loading the SDK.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AgentScope, AgentTransport, ResourceSubscription, ToolVisibility } from '../contracts/index.js';
import type { SessionLogLevel } from './agent-requests.js';
import type { Catalogue } from './catalogue.js';
import type { ContentSource } from './content-source.js';
import type { SessionToolCall } from './direct-tool-calls.js';
import type { Dispatcher } from './dispatcher.js';

/** What every MCP revision is served over: Junction's identity, the catalogue, the dispatcher and the content. */
export interface McpServedParts {
  name: string;
  version: string;
  instructions?: string;
  catalogue: Catalogue;
  dispatcher: Dispatcher;
  content?: ContentSource;
}

export interface McpServerDeps extends McpServedParts {
  /** Told when an agent session's server closes, so session-scoped approvals end with it. */
  sessionClosed?: (session: string) => void;
  /** Told when an agent session completes its initialize handshake and when it closes. */
  sessions?: SessionObserver;
  /** Resource subscriptions one agent session may hold; more are refused with SubscriptionLimit. */
  maxSubscriptionsPerSession?: number;
  /** Visibility rules also decide which plugins' prompts and resources a session sees. */
  visibility?: Pick<ToolVisibility, 'onChanged'>;
}

/** What one live agent session holds of the MCP extension: its logging level and resource subscriptions. */
export interface SessionState {
  server: Server;
  /** Who the session is, for the catalogue: its id, the route's pin and the client's name. */
  scope: () => AgentScope;
  logLevel: SessionLogLevel;
  /** By URI; each knows its topic, so an update from another project's same URI is not this one's. */
  subscriptions: Map<string, ResourceSubscription>;
  /** The session's tools/call handler past the request check, for its transport's direct calls. */
  toolCall: SessionToolCall;
}

/** An agent session as the rest of Junction sees it: who it is and which project pin its route carries. */
export interface AgentSessionInfo {
  sessionId: string;
  transport: AgentTransport;
  pin?: string;
  client: { name?: string; version?: string; title?: string; description?: string; websiteUrl?: string };
  /** The MCP revision the session negotiated, where its transport knows it. */
  protocolVersion?: string;
}

export interface SessionObserver {
  opened(session: AgentSessionInfo): void;
  closed(session: AgentSessionInfo): void;
}

/** How a server knows its session: the id (known once the transport assigned it) and the route's pin. */
export interface SessionBinding {
  id: () => string | undefined;
  pin?: string;
  /** The revision negotiated at initialize, where the transport saw it. */
  protocolVersion?: string;
}

/** The factory's table of live sessions, as a session's server enters and leaves it. */
export interface LiveSessions {
  add(state: SessionState): void;
  has(server: Server): boolean;
  /** Releases the session's subscriptions; a session already ended is left alone. */
  end(state: SessionState): void;
}

/** Builds one session's server, unconnected; `agentLabel` names the session in the console. */
export type BuildSessionServer = (transport: AgentTransport, agentLabel: () => string, session?: SessionBinding) => Server;

/** session-server.ts, as the factory loads it. */
export interface SessionServerModule {
  sessionServerBuilder(deps: McpServerDeps, maxSubscriptions: number, live: LiveSessions): BuildSessionServer;
}
