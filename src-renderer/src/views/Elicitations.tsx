/**
 * MCP requests nested in a call (elicitation, sampling, roots) for the call trace, and the operator's choice of
 * who answers elicitations (the answers themselves are given in a dialog: ElicitationDialog).
 */
import type { NestedRequestView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { useUi } from '../store/ui.js';
import { formatDuration } from '../lib/format.js';

/** The trace of a call's nested requests, in the order they started. */
export function NestedTrace({ nested }: { nested: readonly NestedRequestView[] }) {
  if (nested.length === 0) return null;
  return (
    <>
      <h4>Requests to the agent</h4>
      <ol className="nested-trace" aria-label="Requests to the agent">
        {nested.map((n) => (
          <li key={n.nestedId} data-nested-kind={n.kind}>
            <span className={`pill status-${n.status === 'pending' ? 'running' : n.status}`}>{n.status === 'error' && n.errorCode ? n.errorCode : n.status}</span> {n.kind}
            {n.outcome && <span className="muted"> → {n.outcome}</span>}
            {n.durationMs !== undefined && <span className="muted"> · {formatDuration(n.durationMs)}</span>}
            <div className="muted">{n.summary}</div>
          </li>
        ))}
      </ol>
    </>
  );
}

/** Who answers elicitations (switchable while Junction runs), and the ones waiting for the operator. */
export function ElicitationsPanel() {
  const elicitations = useConsole((s) => s.data.elicitations);
  const run = useConsole((s) => s.run);
  const answer = useUi((s) => s.answer);
  if (!elicitations) return null;
  return (
    <div className="elicitations" aria-label="Elicitations">
      <label className="field">
        Elicitations answered by{' '}
        <select
          value={elicitations.answerer}
          onChange={(e) => void run('setElicitationAnswerer', { answerer: e.target.value === 'console' ? 'console' : 'agent' }, 'Elicitation answerer changed')}
        >
          <option value="agent">the agent</option>
          <option value="console">this console</option>
        </select>
      </label>
      {elicitations.pending.map((e) => (
        <button key={e.elicitationId} type="button" className="primary small" onClick={() => answer(e.elicitationId)}>
          Answer {e.tool}…
        </button>
      ))}
    </div>
  );
}
