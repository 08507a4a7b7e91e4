/**
 * Builds MCP servers (one per agent session, as the SDK's Server serves one transport) over the shared
 * catalogue, dispatcher and content source, and keeps every live one told about catalogue changes.
 * Each session's server is built by session-server.ts, which this factory loads with its first session:
 * what only that module needs (the SDK's Server and Protocol, and the zod v3, zod mini and
 * zod-to-json-schema of the SDK's schema compatibility layer) held 1.2 MB of an idle Junction's RSS,
 * and a Junction whose agents speak only 2026-07-28 (modern/, no SDK Server) never needs it.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AgentTransport } from '../contracts/index.js';
import type { SessionToolCall } from './direct-tool-calls.js';
import type { McpServerDeps, SessionBinding, SessionServerModule, SessionState } from './sessions.js';
import { onFirstNeed } from '../shared/index.js';

/** Resource subscriptions one agent session (or one 2026-07-28 listen stream) may hold. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 100;

export interface McpServerFactory {
  /**
   * A new, unconnected server; `agentLabel` names the session in the console. The first waits while
   * the SDK's Server loads; a failed load rejects with InternalError, and the next create loads again.
   */
  create(transport: AgentTransport, agentLabel: () => string, session?: SessionBinding): Promise<Server>;
  liveCount(): number;
  /** The tools/call handler a live server registered, for a transport that serves plain calls itself (direct-tool-calls.ts). */
  toolCalls(server: Server): SessionToolCall | undefined;
  /** Resource subscriptions held by live sessions, for leak checks and the console. */
  subscriptionCount(): number;
  close(): void;
}

/** `loadSessionServer` is for tests, to hold or fail the load; Node loads the module once per process. */
export function createMcpServerFactory(deps: McpServerDeps, loadSessionServer: () => Promise<SessionServerModule> = () => import('./session-server.js')): McpServerFactory {
  const live = new Map<Server, SessionState>();
  const maxSubscriptions = deps.maxSubscriptionsPerSession ?? DEFAULT_MAX_SUBSCRIPTIONS;
  const broadcast = (send: (state: SessionState) => Promise<void> | undefined) => {
    for (const state of live.values()) send(state)?.catch(() => undefined);
  };
  const unsubscribe = [
    // A visibility change tells only the sessions whose list it changed.
    deps.catalogue.onChanged((affects) => broadcast((s) => (affects && !affects(s.scope()) ? undefined : s.server.sendToolListChanged()))),
    deps.content?.onPromptsChanged(() => broadcast((s) => s.server.sendPromptListChanged())),
    deps.content && deps.visibility?.onChanged(() => broadcast((s) => Promise.all([s.server.sendPromptListChanged(), s.server.sendResourceListChanged()]).then(() => undefined))),
    deps.content?.onResourcesChanged(() => broadcast((s) => s.server.sendResourceListChanged())),
    deps.content?.onResourceUpdated(({ uri, topic }) => broadcast((s) => (s.subscriptions.get(uri)?.topic === topic ? s.server.sendResourceUpdated({ uri }) : undefined))),
    deps.content?.onLog(({ level, logger, data }) =>
      broadcast((s) => (s.logLevel.allows(level) ? s.server.notification({ method: 'notifications/message', params: { level, data, ...(logger ? { logger } : {}) } }) : undefined)),
    ),
  ];
  /** A session's subscriptions are released when it ends, so the owners' counts stay exact. */
  const endSession = (state: SessionState) => {
    if (!live.delete(state.server)) return;
    for (const subscription of state.subscriptions.values()) subscription.release();
    state.subscriptions.clear();
  };
  const loadBuilder = onFirstNeed("The MCP SDK's server, which serves every MCP session,", () =>
    loadSessionServer().then((module) => module.sessionServerBuilder(deps, maxSubscriptions, { add: (state) => live.set(state.server, state), has: (server) => live.has(server), end: endSession })),
  );

  return {
    async create(transport, agentLabel, session) {
      const build = await loadBuilder();
      return build(transport, agentLabel, session);
    },
    liveCount: () => live.size,
    toolCalls: (server) => live.get(server)?.toolCall,
    subscriptionCount: () => [...live.values()].reduce((n, s) => n + s.subscriptions.size, 0),
    close() {
      for (const u of unsubscribe) u?.();
      for (const state of [...live.values()]) {
        endSession(state);
        state.server.close().catch(() => undefined);
      }
    },
  };
}
