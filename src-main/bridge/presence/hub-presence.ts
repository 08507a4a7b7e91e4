/**
 * Tells plugins about agents the way McpPlugin.Server does: `OnInitialClientData(all)` right after a
 * plugin connects, `OnMcpClientConnected(agent, all)` / `OnMcpClientDisconnected(agent, remaining)` to
 * every plugin as agents come and go (one operator, so no account scoping: every plugin hears), and the
 * answers to `GetMcpClientData` / `GetMcpServerData`.
 */
import { ServerToPlugin, PluginToServer } from '../../../plugins/sdk/wire/index.js';
import type { HubServer } from '../signalr/index.js';
import type { AgentPresence, McpServerData } from './agent-presence.js';

export function attachPresence(hub: HubServer, presence: AgentPresence, server: Omit<McpServerData, 'isAiAgentConnected'>): () => void {
  const broadcast = (method: string, args: unknown[]) => {
    for (const connection of hub.connections()) connection.send(method, args);
  };
  const disposers = [
    hub.on(PluginToServer.GetMcpClientData, () => presence.clients()),
    hub.on(PluginToServer.GetMcpServerData, () => presence.serverData(server)),
    hub.events.on('connected', (connection) => connection.send(ServerToPlugin.OnInitialClientData, [presence.clients()])),
    presence.events.on('connected', ({ agent, all }) => broadcast(ServerToPlugin.OnMcpClientConnected, [agent, all])),
    presence.events.on('disconnected', ({ agent, remaining }) => broadcast(ServerToPlugin.OnMcpClientDisconnected, [agent, remaining])),
  ];
  return () => disposers.forEach((off) => off());
}
