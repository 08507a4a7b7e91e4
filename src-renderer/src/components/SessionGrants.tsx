/**
 * The "allow for this session" grants in force, each revocable: the session's next call of that tool is
 * asked again. The server keeps no event for grants, so the list is fetched again whenever a held call is
 * decided, an agent comes or goes, or a grant is revoked.
 */
import { useState } from 'react';
import type { SessionGrantView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';
import { ruleMatchers } from '../lib/policy-rules.js';
import { useCommandResult } from '../lib/use-command-result.js';
import { DataTable, type Column } from './DataTable.js';
import { CallLink } from './CallLink.js';
import { useBusy } from './HeldCall.js';

function columns(revoke: (grant: SessionGrantView) => void, busy: boolean): ReadonlyArray<Column<SessionGrantView>> {
  return [
    { header: 'Tool', cell: (g) => <code>{g.tool}</code>, rowHeader: true },
    { header: 'Agent session', cell: (g) => <span title={g.session}>{g.agent}</span> },
    { header: 'Held by rule', cell: (g) => ruleMatchers(g.rule) },
    { header: 'Target', cell: (g) => <code>{g.target}</code> },
    { header: 'Granted', cell: (g) => formatTime(g.grantedAt) },
    { header: 'Call', cell: (g) => <CallLink callId={g.callId} which={`that granted ${g.tool} to ${g.agent}`} /> },
    {
      header: 'Revoke',
      hidden: true,
      cell: (g) => (
        <button type="button" disabled={busy} onClick={() => revoke(g)} aria-label={`Revoke ${g.tool} for ${g.agent}`}>
          Revoke
        </button>
      ),
    },
  ];
}

export function SessionGrants() {
  const run = useConsole((s) => s.run);
  const decided = useConsole((s) => s.data.callApprovals.length - s.data.callApprovals.filter((a) => a.state === 'pending').length);
  const agents = useConsole((s) => s.data.agents.length);
  const [revoked, setRevoked] = useState(0);
  const [busy, act] = useBusy();
  const grants = useCommandResult('sessionGrants', {}, [decided, agents, revoked]);
  const revoke = (grant: SessionGrantView): void =>
    void act(async () => {
      await run('revokeSessionGrant', { grantId: grant.grantId }, `Session grant for ${grant.tool} revoked`);
      setRevoked((n) => n + 1);
    });
  return (
    <>
      {grants.error && <p className="callout bad">{grants.error}</p>}
      <DataTable
        rows={grants.value ?? []}
        columns={columns(revoke, busy)}
        rowKey={(g) => g.grantId}
        label="Session grants"
        rowTestId="session-grant"
        empty="No session grants: no agent session may skip a question."
      />
    </>
  );
}
