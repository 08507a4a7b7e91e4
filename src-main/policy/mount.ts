/**
 * The approval policy as a part of a running Junction: the rules (from the policy file, loaded and
 * validated before anything else starts), the gate every tool call passes, the console's views and
 * commands over held calls and the rules, and its events on the console's stream.
 */
import { resolve } from 'node:path';
import type { CallApprovalView, ControlCommandHandlers, ControlEvent, PolicyView } from '../contracts/index.js';
import { CallApprovals } from './call-approvals.js';
import { loadPolicyFile, policyFilePersistence } from './policy-file.js';
import { PolicyStore } from './policy-store.js';

export interface PolicyMountContext {
  /** The `approval-policy` setting; without it every call is allowed. */
  file: string | undefined;
  /** How long a held call waits for the operator. */
  timeoutMs: number;
  /** The console's event stream. */
  control: { publish(event: ControlEvent): unknown };
}

export interface MountedPolicy {
  store: PolicyStore;
  /** The gate of every tool call. */
  callApprovals: CallApprovals;
  views: { policy(): PolicyView; callApprovals(): CallApprovalView[] };
  commands: ControlCommandHandlers<'decideCall' | 'savePolicy'>;
  dispose(): void;
}

/** An invalid policy file throws here, naming the rule and field, before any other part has started. */
export async function mountPolicy(context: PolicyMountContext): Promise<MountedPolicy> {
  const { control } = context;
  const path = context.file ? resolve(context.file) : null;
  const document = path ? await loadPolicyFile(path) : { rules: [] };
  const store = new PolicyStore({ path, document, ...(path ? { persistence: policyFilePersistence(path) } : {}) });
  const stopEvents = store.onChanged((policy, change) => control.publish({ type: 'policy.updated', policy, change }));
  const callApprovals = new CallApprovals({
    store,
    timeoutMs: context.timeoutMs,
    events: {
      requested: (approval) => control.publish({ type: 'callApproval.requested', approval }),
      decided: (approval) => control.publish({ type: 'callApproval.decided', approval }),
    },
  });
  return {
    store,
    callApprovals,
    views: { policy: () => store.view(), callApprovals: () => callApprovals.views() },
    commands: {
      decideCall: (decision) => callApprovals.decide(decision),
      savePolicy: ({ text, baseVersion }) => store.replace(text, baseVersion),
    },
    dispose() {
      stopEvents();
      callApprovals.close();
    },
  };
}
