/**
 * The approval policy: its rules as a table and as JSON the operator may edit. Saving sends the text
 * with the version it was based on; the server validates it (naming the rule and field of any problem),
 * writes the file atomically and refuses the save when someone else changed the policy meanwhile.
 */
import { useState } from 'react';
import type { PolicyRule } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';

function matchers(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.tool !== undefined) parts.push(`tool ${rule.tool}`);
  if (rule.source !== undefined) parts.push(`source ${rule.source}`);
  if (rule.plugin !== undefined) parts.push(`plugin ${rule.plugin}`);
  if (rule.project !== undefined) parts.push(`project ${rule.project}`);
  if (rule.role !== undefined) parts.push(`role ${rule.role}`);
  if (rule.agent !== undefined) parts.push(`agent ${rule.agent}`);
  for (const [hint, value] of Object.entries(rule.annotations ?? {})) parts.push(`${hint}=${String(value)}`);
  for (const m of rule.arguments ?? []) {
    const test = m.exists !== undefined ? (m.exists ? 'exists' : 'absent') : m.regex !== undefined ? `~ /${m.regex}/` : `= ${JSON.stringify(m.equals)}`;
    parts.push(`${m.pointer || '(root)'} ${test}`);
  }
  return parts.length > 0 ? parts.join(', ') : 'every call';
}

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
      <table className="data" aria-label="Policy rules">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Matches</th>
            <th scope="col">Action</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {policy.document.rules.map((rule, i) => (
            <tr key={i} data-testid="policy-rule">
              <td>{i}</td>
              <td>{matchers(rule)}</td>
              <td>
                <span className={`pill ${rule.action === 'allow' ? 'ok' : rule.action === 'deny' ? 'bad' : 'warn'}`}>{rule.action}</span>
              </td>
              <td>{rule.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
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
