/**
 * Agent presence for plugins: which agents are connected (McpClientData), pushed over the hub as they
 * come and go, and the GetMcpClientData / GetMcpServerData answers.
 *
 *   const presence = new AgentPresence({ apiIdleMs });
 *   presence.opened(session) / presence.closed(sessionId) / presence.apiCall(agentLabel)
 *   const detach = attachPresence(hub, presence, { serverVersion, serverApiVersion, serverTransport });
 */
export { AgentPresence, clientData, type AgentClientInfo, type AgentSession, type McpClientData, type McpServerData, type PresenceEvents } from './agent-presence.js';
export { attachPresence } from './hub-presence.js';
