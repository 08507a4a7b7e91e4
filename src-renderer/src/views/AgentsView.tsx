/** Who is connected: MCP sessions and direct HTTP callers, where their calls go and how many they made. */
import { useMemo } from 'react';
import type { AgentView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { agentProject, callsPerAgent, TRANSPORT_LABEL } from '../lib/agents.js';
import { formatCount, formatSpan, formatTime } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';

export function AgentsView() {
  const agents = useConsole((s) => s.data.agents);
  const calls = useConsole((s) => s.data.calls);
  const callIds = useConsole((s) => s.data.callIds);
  const plugins = useConsole((s) => s.data.plugins);
  const bridge = useConsole((s) => s.data.bridge);
  const now = useNow();
  const counts = useMemo(() => callsPerAgent(agents, calls, callIds), [agents, calls, callIds]);
  const columns: ReadonlyArray<Column<AgentView>> = [
    { header: 'Name', rowHeader: true, cell: (a) => `${a.clientName ?? 'unnamed client'}${a.clientVersion ? ` ${a.clientVersion}` : ''}` },
    { header: 'Transport', cell: (a) => TRANSPORT_LABEL[a.transport] },
    { header: 'MCP revision', cell: (a) => a.protocolVersion ?? (a.transport === 'http-api' ? 'not MCP' : 'unknown') },
    { header: 'Session', cell: (a) => <code title={a.sessionId}>{a.sessionId.length > 13 ? `${a.sessionId.slice(0, 8)}…` : a.sessionId}</code> },
    { header: 'Project', cell: (a) => agentProject(a, plugins, bridge) },
    { header: 'Calls', className: 'c-num', cell: (a) => counts.get(a.sessionId) ?? 0 },
    { header: 'Since', cell: (a) => <span title={formatTime(a.connectedAt)}>{formatTime(a.connectedAt)} · {formatSpan(now - a.connectedAt)}</span> },
  ];
  return (
    <section aria-labelledby="agents-title" className="view">
      <h2 id="agents-title">Agents</h2>
      <p className="muted">Calls count what this console holds (the last {formatCount(callIds.length)} calls); the full record is in Live calls.</p>
      <DataTable rows={agents} columns={columns} rowKey={(a) => a.sessionId} label="Connected agents" rowTestId="agent-row" empty="No agent is connected. Agents connect to the MCP endpoint shown under Bridge." />
    </section>
  );
}
