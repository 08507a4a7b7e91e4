/**
 * The approval policy: its rules as a table and as JSON the operator may edit. Saving sends the text
 * with the version it was based on; the server validates it (naming the rule and field of any problem),
 * writes the file atomically and refuses the save when someone else changed the policy meanwhile.
 */
import { useState } from 'react';
import type { PolicyFinding, PolicyRule } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';
import { ruleMatchers } from '../lib/policy-rules.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { DecisionLog } from '../components/DecisionLog.js';
import { PolicyUndo } from '../components/PolicyUndo.js';
import { SessionGrants } from '../components/SessionGrants.js';

type NumberedRule = { index: number; rule: PolicyRule; finding: PolicyFinding | undefined };

const RULE_COLUMNS: ReadonlyArray<Column<NumberedRule>> = [
  { header: '#', cell: (r) => r.index },
  { header: 'Matches', cell: (r) => ruleMatchers(r.rule) },
  { header: 'Action', cell: (r) => <span className={`pill ${r.rule.action === 'allow' ? 'ok' : r.rule.action === 'deny' ? 'bad' : 'warn'}`}>{r.rule.action}</span> },
  { header: 'Reason', cell: (r) => r.rule.reason ?? '' },
  {
    header: 'Finding',
    cell: (r) =>
      r.finding && (
        <span className="pill bad" title={r.finding.message} data-testid="rule-finding">
          {r.finding.kind === 'shadowed' ? `dead: rule ${r.finding.byRule} decides first` : `redundant after rule ${r.finding.byRule}`}
        </span>
      ),
  },
];

export function PolicyView() {
  const policy = useConsole((s) => s.data.policy);
  const run = useConsole((s) => s.run);
  const [draft, setDraft] = useState<{ text: string; baseVersion: number } | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  if (!policy) {
    return (
      <section aria-labelledby="policy-title" className="view">
        <h2 id="policy-title">Approval policy</h2>
        <p className="empty">This server reports no approval policy.</p>
      </section>
    );
  }
  const current = JSON.stringify(policy.document, null, 2);
  const save = async (): Promise<void> => {
    if (!draft) return;
    setBusy(true);
    try {
      const result = await run('savePolicy', draft, 'Policy saved');
      if (result.ok) {
        setDraft(undefined);
        setProblem(undefined);
      } else {
        setProblem(`${result.error.code}: ${result.error.message}`);
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="policy-title" className="view">
      <h2 id="policy-title">Approval policy</h2>
      {policy.path ? (
        <p className="muted">
          File <code>{policy.path}</code> · version {policy.version} · updated {formatTime(policy.updatedAt)}. The first matching rule decides; a call no rule matches is allowed.
        </p>
      ) : (
        <p className="callout warn">No approval-policy file is configured, so every call is allowed. Start Junction with approval-policy=FILE to add rules here.</p>
      )}
      {policy.findings.length > 0 && (
        <div className="callout warn" data-testid="policy-findings">
          <p>
            {policy.findings.length === 1 ? 'One rule never decides a call' : `${policy.findings.length} rules never decide a call`}; move or remove{' '}
            {policy.findings.length === 1 ? 'it' : 'them'}:
          </p>
          <ul>
            {policy.findings.map((f) => (
              <li key={f.ruleIndex}>{f.message}</li>
            ))}
          </ul>
        </div>
      )}
      <PolicyUndo />
      <DataTable
        rows={policy.document.rules.map((rule, index) => ({ index, rule, finding: policy.findings.find((f) => f.ruleIndex === index) }))}
        columns={RULE_COLUMNS}
        rowKey={(r) => String(r.index)}
        label="Policy rules"
        rowTestId="policy-rule"
      />
      <h3>Session grants</h3>
      <SessionGrants />
      <h3>Decision log</h3>
      <DecisionLog />
      {policy.path && (
        <>
          <h3>Edit as JSON</h3>
          {draft && draft.baseVersion !== policy.version && (
            <p className="callout warn">
              The policy changed to version {policy.version} since you started editing; saving will be refused.{' '}
              <button type="button" onClick={() => setDraft(undefined)}>
                Discard my edits and reload
              </button>
            </p>
          )}
          <textarea
            className="policy-editor"
            aria-label="Policy JSON"
            spellCheck={false}
            value={draft?.text ?? current}
            onChange={(e) => setDraft({ text: e.target.value, baseVersion: draft?.baseVersion ?? policy.version })}
          />
          {problem && (
            <p className="callout bad" role="alert" data-testid="policy-problem">
              {problem}
            </p>
          )}
          <div className="decision">
            <button type="button" className="primary" disabled={busy || !draft} onClick={() => void save()}>
              Save policy
            </button>
            <button type="button" disabled={busy || !draft} onClick={() => (setDraft(undefined), setProblem(undefined))}>
              Revert
            </button>
          </div>
        </>
      )}
    </section>
  );
}
