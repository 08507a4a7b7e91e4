/**
 * "Always allow" changes the policy file, so it is never one click: the first click shows the rule it
 * would write and where, the second writes it.
 */
import { useState } from 'react';
import type { CallApprovalView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { alwaysAllowRule } from '../lib/policy-rules.js';

export function AlwaysAllow({ approval, disabled, onConfirm }: { approval: CallApprovalView; disabled: boolean; onConfirm: () => Promise<unknown> }) {
  const [open, setOpen] = useState(false);
  const rules = useConsole((s) => s.data.policy?.document.rules ?? []);
  const preview = alwaysAllowRule(approval, rules);
  if (!open) {
    return (
      <button type="button" disabled={disabled} aria-expanded={false} title={disabled ? 'No policy file is configured' : 'Shows the rule it would write first'} onClick={() => setOpen(true)}>
        Always allow…
      </button>
    );
  }
  return (
    <div className="always-allow callout warn" role="group" aria-label="Always allow: the rule it writes" data-testid="always-allow-preview">
      <p>
        Writes this rule into the policy file as rule {preview.index}, just before the rule that asked ({approval.ruleIndex} now, {approval.ruleIndex + 1} after):
      </p>
      <pre className="json">{JSON.stringify(preview.rule, null, 2)}</pre>
      <p>{preview.scope}</p>
      <div className="decision">
        <button
          type="button"
          className="primary"
          disabled={disabled}
          onClick={() => {
            setOpen(false);
            void onConfirm();
          }}
        >
          Write rule and allow
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
