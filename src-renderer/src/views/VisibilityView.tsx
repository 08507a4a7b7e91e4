/**
 * What agents see: per tool an "agents see this" switch (a hide rule the server writes to the policy
 * file, with the same Conflict check as any policy change), and for one connected agent exactly the
 * catalogue it sees, asked of the server so that the console never re-implements the rules.
 */
import { useState } from 'react';
import { isVisibilitySwitch } from '../../../src-main/contracts/index.js';
import type { AgentView, ToolCatalogueEntry } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { useCommandResult } from '../lib/use-command-result.js';
import { useToolCatalogue } from '../lib/use-tools.js';

/** The name an agent's rules match it by: its MCP client name, `http` for /api callers. */
function agentNameOf(agent: AgentView): string {
  return agent.transport === 'http-api' ? 'http' : (agent.clientName ?? 'unknown');
}

function AgentCatalogue({ agent, policyVersion }: { agent: AgentView; policyVersion: number }) {
  const tools = useConsole((s) => s.data.plugins);
  const args = { agentName: agentNameOf(agent), ...(agent.pin ? { pin: agent.pin } : {}), ...(agent.transport === 'http-api' ? {} : { sessionId: agent.sessionId }) };
  const { value, error } = useCommandResult('agentCatalogue', args, [agent.sessionId, policyVersion, tools]);
  if (error) return <p className="callout bad">{error}</p>;
  if (!value) return <p className="muted">Loading…</p>;
  return (
    <div data-testid="agent-catalogue">
      <p className="muted">
        {value.tools.length} tool{value.tools.length === 1 ? '' : 's'} as <code>{value.agentName}</code> lists them{value.pin ? ` on /p/${value.pin}` : ''}.
      </p>
      <ul className="plain">
        {value.tools.map((t) => (
          <li key={t.name} data-testid="agent-catalogue-tool">
            <code>{t.name}</code> <span className="muted">{t.source}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function VisibilityView() {
  const policy = useConsole((s) => s.data.policy);
  const agents = useConsole((s) => s.data.agents);
  const run = useConsole((s) => s.run);
  const { tools, error } = useToolCatalogue();
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const rules = policy?.document.rules ?? [];
  const switchable = Boolean(policy?.path);
  const toggle = async (tool: string, visible: boolean): Promise<void> => {
    if (!policy) return;
    setBusy(tool);
    try {
      await run('setToolVisible', { tool, visible, baseVersion: policy.version }, visible ? `Agents see ${tool} again` : `${tool} hidden from agents`);
    } finally {
      setBusy(undefined);
    }
  };
  const columns: ReadonlyArray<Column<ToolCatalogueEntry>> = [
    { header: 'Tool', rowHeader: true, cell: (t) => <code>{t.name}</code> },
    { header: 'Source', cell: (t) => t.source },
    {
      header: 'Agents see this',
      cell: (t) => {
        const seen = !rules.some((r) => isVisibilitySwitch(r, t.name));
        return (
          <label>
            <input type="checkbox" checked={seen} disabled={!switchable || busy !== undefined} aria-label={`Agents see ${t.name}`} onChange={() => void toggle(t.name, !seen)} /> {seen ? 'shown' : 'hidden'}
          </label>
        );
      },
    },
  ];
  const listed = agents.filter((a) => a.transport !== 'console');
  const agent = listed.find((a) => a.sessionId === chosen) ?? listed[0];
  return (
    <section aria-labelledby="visibility-title" className="view">
      <h2 id="visibility-title">What agents see</h2>
      {!switchable && <p className="callout warn">No approval-policy file is configured, so the switches cannot be saved. Start Junction with approval-policy=FILE.</p>}
      <p className="muted">Switching a tool off writes a hide rule first in the policy file; the policy's own hide and show rules may hide it from some agents still. Agents hear tools/list_changed.</p>
      {error && <p className="callout bad">{error}</p>}
      <DataTable rows={tools ?? []} columns={columns} rowKey={(t) => t.name} label="Tool visibility" rowTestId="visibility-tool" dense empty={tools ? 'No tools.' : 'Loading the catalogue…'} />
      <h3>One agent&apos;s catalogue</h3>
      {listed.length === 0 ? (
        <p className="empty">No agent is connected.</p>
      ) : (
        <>
          <label>
            Agent{' '}
            <select aria-label="Agent" value={agent?.sessionId} onChange={(e) => setChosen(e.target.value)}>
              {listed.map((a) => (
                <option key={a.sessionId} value={a.sessionId}>
                  {agentNameOf(a)} · {a.sessionId.slice(0, 8)}
                  {a.pin ? ` · /p/${a.pin}` : ''}
                </option>
              ))}
            </select>
          </label>
          {agent && <AgentCatalogue key={agent.sessionId} agent={agent} policyVersion={policy?.version ?? 0} />}
        </>
      )}
    </section>
  );
}
