/**
 * "Always allow" changes the policy file, so it is never one click: the first click asks the server for
 * the exact rule it would write, where, and which rules that would leave dead; the second writes it.
 * After that the rule can be taken out again (PolicyUndo).
 */
import { useState } from 'react';
import type { AlwaysAllowPreview, CallApprovalView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { alwaysAllowScope, findingsAddedBy } from '../lib/policy-rules.js';

type Preview = { state: 'loading' } | { state: 'ready'; preview: AlwaysAllowPreview } | { state: 'failed'; problem: string };

function PreviewBody({ approval, preview }: { approval: CallApprovalView; preview: AlwaysAllowPreview }) {
  const current = useConsole((s) => s.data.policy?.findings ?? []);
  const added = findingsAddedBy(preview.findings, current, preview.ruleIndex);
  return (
    <>
      <p>
        Writes this rule into the policy file as rule {preview.ruleIndex}, just before the rule that asked ({approval.ruleIndex} now, {approval.ruleIndex + 1} after):
      </p>
      <pre className="json">{JSON.stringify(preview.rule, null, 2)}</pre>
      <p>{alwaysAllowScope(approval, preview.rule)}</p>
      {added.length === 0 ? (
        <p data-testid="always-allow-findings">It leaves no rule dead: every rule still decides some call.</p>
      ) : (
        <div className="callout bad" data-testid="always-allow-findings">
          <p>After it the policy would have dead rules:</p>
          <ul>
            {added.map((f) => (
              <li key={`${f.ruleIndex}:${f.byRule}`}>{f.message}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

export function AlwaysAllow({ approval, disabled, onConfirm }: { approval: CallApprovalView; disabled: boolean; onConfirm: () => Promise<unknown> }) {
  const channel = useConsole((s) => s.channel);
  const [preview, setPreview] = useState<Preview | undefined>(undefined);
  const open = async (): Promise<void> => {
    if (!channel) return;
    setPreview({ state: 'loading' });
    const result = await channel.invoke('previewAlwaysAllow', { askId: approval.askId });
    setPreview(result.ok ? { state: 'ready', preview: result.value } : { state: 'failed', problem: `${result.error.code}: ${result.error.message}` });
  };
  if (!preview) {
    return (
      <button type="button" disabled={disabled} aria-expanded={false} title={disabled ? 'No policy file is configured' : 'Shows the rule it would write first'} onClick={() => void open()}>
        Always allow…
      </button>
    );
  }
  return (
    <div className="always-allow callout warn" role="group" aria-label="Always allow: the rule it writes" data-testid="always-allow-preview">
      {preview.state === 'loading' && <p>Asking the server which rule it would write…</p>}
      {preview.state === 'failed' && <p role="alert">The rule could not be previewed ({preview.problem}), so it cannot be written from here.</p>}
      {preview.state === 'ready' && <PreviewBody approval={approval} preview={preview.preview} />}
      <div className="decision">
        <button
          type="button"
          className="primary"
          disabled={disabled || preview.state !== 'ready'}
          onClick={() => {
            setPreview(undefined);
            void onConfirm();
          }}
        >
          Write rule and allow
        </button>
        <button type="button" onClick={() => setPreview(undefined)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
