import type { ApprovalRequesterView } from '../store/types.js';

/** The agent that asked for a commit approval: its client name, with the full label (version, session) on hover. */
export function Requester({ requestedBy }: { requestedBy: ApprovalRequesterView | undefined }) {
  if (!requestedBy) return <span className="muted">unknown agent</span>;
  const session = requestedBy.sessionId ? ` · session ${requestedBy.sessionId}` : '';
  return (
    <span data-testid="approval-agent" title={`${requestedBy.agent} via ${requestedBy.transport}${session}`}>
      {requestedBy.agentName}
    </span>
  );
}
