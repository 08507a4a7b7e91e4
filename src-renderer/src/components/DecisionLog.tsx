/**
 * Held calls as they were decided, oldest first, as the server's decision log keeps them: when, what, by
 * whom, the arguments the decision covered, and a link to the call. Fetched again after every decision.
 */
import type { CallApprovalView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';
import { argumentsLine, decisionText } from '../lib/policy-rules.js';
import { useCommandResult } from '../lib/use-command-result.js';
import { DataTable, type Column } from './DataTable.js';
import { CallLink } from './CallLink.js';

/** Decisions the log shows: the server keeps more, the operator reads the recent ones. */
const LOG_LIMIT = 200;

const COLUMNS: ReadonlyArray<Column<CallApprovalView>> = [
  { header: 'Decided', cell: (a) => (a.decidedAt ? formatTime(a.decidedAt) : '—') },
  { header: 'Tool', cell: (a) => <code>{a.tool}</code>, rowHeader: true },
  { header: 'Agent session', cell: (a) => a.agent },
  {
    header: 'Outcome',
    cell: (a) => (
      <>
        <span className={`pill ${a.state === 'allowed' ? 'ok' : 'bad'}`}>{decisionText(a)}</span>
        {a.decidedBy === 'policy' && <span className="muted"> by a policy change</span>}
      </>
    ),
  },
  { header: 'Arguments', cell: (a) => <code className="args-line">{argumentsLine(a)}</code>, className: 'desc' },
  { header: 'Reason', cell: (a) => a.operatorReason ?? '' },
  { header: 'Call', cell: (a) => <CallLink callId={a.callId} which={`${a.tool} decided at ${a.decidedAt ? formatTime(a.decidedAt) : 'no time'}`} /> },
];

export function DecisionLog() {
  const decided = useConsole((s) => s.data.callApprovals.filter((a) => a.state !== 'pending').length);
  const lastDecided = useConsole((s) => s.data.callApprovals.reduce((latest, a) => Math.max(latest, a.decidedAt ?? 0), 0));
  const log = useCommandResult('decisionLog', { limit: LOG_LIMIT }, [decided, lastDecided]);
  return (
    <>
      {log.error && <p className="callout bad">{log.error}</p>}
      <DataTable rows={log.value ?? []} columns={COLUMNS} rowKey={(a) => a.askId} label="Decision log, oldest first" rowTestId="call-approval-decided" empty="No held call has been decided yet." />
    </>
  );
}
