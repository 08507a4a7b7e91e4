/**
 * A tool call held by an `ask` rule, as the operator decides it: what it is, why it waits, its complete
 * arguments, and the decisions. The same card serves the Approvals view and a held call's detail in Live
 * calls, so both offer exactly the same choices.
 */
import { useState } from 'react';
import type { CallApprovalView, PolicyDecisionKind } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatSpan, formatTime } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';
import { AlwaysAllow } from './AlwaysAllow.js';
import { JsonTree } from './JsonTree.js';

/** Runs one decision at a time and disables the buttons meanwhile. */
export function useBusy(): [boolean, (action: () => Promise<unknown>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  return [busy, run];
}

/** "refused in 1m 05s unless you decide" */
export function HeldCountdown({ approval }: { approval: CallApprovalView }) {
  const now = useNow();
  return (
    <span role="timer" aria-live="off" data-testid="held-countdown">
      refused in {formatSpan(approval.expiresAt - now)} unless you decide
    </span>
  );
}

function CallDecision({ approval, canWriteRules }: { approval: CallApprovalView; canWriteRules: boolean }) {
  const run = useConsole((s) => s.run);
  const [reason, setReason] = useState('');
  const [busy, decide] = useBusy();
  const subject = { kind: 'call' as const, id: approval.callId, label: `call ${approval.tool}` };
  const send = (decision: PolicyDecisionKind, done: string) =>
    decide(() => run('decideCall', { askId: approval.askId, digest: approval.digest, decision, ...(decision === 'deny' ? { reason: reason.trim() } : {}) }, done, subject));
  return (
    <div className="decision">
      <button type="button" className="primary" disabled={busy} onClick={() => void send('allow-once', 'Allowed once')}>
        Allow once
      </button>
      <button type="button" disabled={busy} onClick={() => void send('allow-session', 'Allowed for this agent session')}>
        Allow for this session
      </button>
      <AlwaysAllow approval={approval} disabled={busy || !canWriteRules} onConfirm={() => send('always', 'Always allowed: rule written')} />
      <label className="field">
        Reason for denial{' '}
        <input type="text" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="the agent receives it" />
      </label>
      <button type="button" className="danger" disabled={busy || reason.trim().length === 0} onClick={() => void send('deny', 'Denied')}>
        Deny
      </button>
    </div>
  );
}

export function HeldCallCard({ approval, testId = 'call-approval-pending' }: { approval: CallApprovalView; testId?: string }) {
  const canWriteRules = useConsole((s) => Boolean(s.data.policy?.path));
  const annotations = Object.entries(approval.annotations ?? {}).filter(([key]) => key.endsWith('Hint'));
  return (
    <article className="approval pending" aria-label={`Held call ${approval.tool}`} data-testid={testId}>
      <h3>
        Tool call <code>{approval.tool}</code> from {approval.agentName}
      </h3>
      <p className="muted">
        {approval.agent} via {approval.transport} → <code>{approval.target}</code> · requested {formatTime(approval.requestedAt)} · <HeldCountdown approval={approval} />
      </p>
      <p data-testid="call-approval-reason">
        <strong>Why it waits:</strong> {approval.reason}
      </p>
      {approval.description && <p className="muted">{approval.description}</p>}
      {annotations.length > 0 && (
        <p>
          {annotations.map(([key, value]) => (
            <span key={key} className={`pill ${key === 'destructiveHint' && value === true ? 'bad' : ''}`}>
              {key}: {String(value)}
            </span>
          ))}
        </p>
      )}
      <h4>
        Arguments <span className="muted">({approval.argumentBytes} bytes, shown in full)</span>
      </h4>
      <JsonTree value={approval.arguments} label={`Arguments of ${approval.tool}`} openDepth={3} sizes />
      <CallDecision approval={approval} canWriteRules={canWriteRules} />
    </article>
  );
}
