/** Connected agents as the Agents view lists them, with the calls each made. Pure. */
import type { AgentView, BridgeView, CallView, PluginView } from '../store/types.js';
import type { CallLookup } from '../store/call-map.js';

/**
 * Calls per agent among the calls the console holds: an MCP call names its session; a direct HTTP
 * caller has none, and presence names it by the same label its calls carry.
 */
export function callsPerAgent(agents: readonly AgentView[], calls: CallLookup, ids: readonly string[]): Map<string, number> {
  const bySession = new Map<string, number>();
  const byLabel = new Map<string, number>();
  for (const id of ids) {
    const call: CallView | undefined = calls.get(id);
    if (!call) continue;
    if (call.sessionId !== undefined) bySession.set(call.sessionId, (bySession.get(call.sessionId) ?? 0) + 1);
    else byLabel.set(call.agent, (byLabel.get(call.agent) ?? 0) + 1);
  }
  // An agent without a session is known to its calls by the label they carry.
  return new Map(agents.map((a) => [a.sessionId, a.callLabel !== undefined ? (byLabel.get(a.callLabel) ?? 0) : (bySession.get(a.sessionId) ?? 0)]));
}

/** The project an agent's calls go to, by name: its routed project, else its pinned one, else the only one there is. */
export function agentProject(agent: AgentView, plugins: readonly PluginView[], bridge: BridgeView | undefined): string {
  const byKey = agent.projectKey === undefined ? undefined : plugins.find((p) => p.project?.key === agent.projectKey)?.project?.label;
  if (byKey) return byKey;
  const byPin = agent.pin === undefined ? undefined : bridge?.projects?.find((p) => p.pin === agent.pin)?.label;
  if (byPin) return byPin;
  if (agent.pin !== undefined) return `pin ${agent.pin}`;
  return bridge?.projectRouting === 'multi' ? 'none chosen' : 'the one project';
}

export const TRANSPORT_LABEL: Record<AgentView['transport'], string> = {
  'mcp-http': 'MCP over HTTP',
  'mcp-stdio': 'MCP over stdio',
  'http-api': 'HTTP tool API',
  console: 'this console',
};
