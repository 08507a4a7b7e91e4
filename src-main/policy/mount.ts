/**
 * The approval policy as a part of a running Junction: the rules (from the policy file, loaded and
 * validated before anything else starts), the gate every tool call passes, the console's views and
 * commands over held calls and the rules, and its events on the console's stream.
 */
import { resolve } from 'node:path';
import type { CallApprovalView, ControlCommandHandlers, ControlEvent, PolicyView, ToolVisibility } from '../contracts/index.js';
import type { Logger } from '../shared/index.js';
import { CallApprovals } from './call-approvals.js';
import { openPolicy, refusedEditNotice } from './open-policy.js';
import type { PolicyStore } from './policy-store.js';
import { storeVisibility } from './visibility.js';

export interface PolicyMountContext {
  /** The `approval-policy` setting; without it every call is allowed. */
  file: string | undefined;
  /** How long a held call waits for the operator. */
  timeoutMs: number;
  /** Most calls held at once, and most bytes of their arguments together; past either a call is refused. */
  maxHeld: number;
  maxHeldBytes: number;
  logger: Logger;
  /** The console's event stream. */
  control: { publish(event: ControlEvent): unknown };
}

export interface MountedPolicy {
  store: PolicyStore;
  /** The gate of every tool call. */
  callApprovals: CallApprovals;
  /** Which tools each agent session sees, for the catalogue. */
  visibility: ToolVisibility;
  views: { policy(): PolicyView; callApprovals(): CallApprovalView[] };
  commands: ControlCommandHandlers<
    | 'decideCall'
    | 'savePolicy'
    | 'callApprovalArguments'
    | 'previewAlwaysAllow'
    | 'undoAlwaysAllow'
    | 'sessionGrants'
    | 'revokeSessionGrant'
    | 'decisionLog'
    | 'setToolVisible'
  >;
  dispose(): void;
}

/** An invalid policy file throws here, naming the rule and field, before any other part has started. */
export async function mountPolicy(context: PolicyMountContext): Promise<MountedPolicy> {
  const { control, logger } = context;
  const opened = await openPolicy(context.file ? resolve(context.file) : null);
  const { store } = opened;
  const stopEvents = store.onChanged((policy, change) => control.publish({ type: 'policy.updated', policy, change }));
  const stopRefusals = store.onRejected((problem) => {
    logger.warn(`approval-policy: an outside edit was not loaded, the policy in force is unchanged: ${problem.message}`);
    control.publish({ type: 'notice.raised', notice: refusedEditNotice(problem, Date.now()) });
  });
  const callApprovals = new CallApprovals({
    store,
    timeoutMs: context.timeoutMs,
    maxHeld: context.maxHeld,
    maxHeldBytes: context.maxHeldBytes,
    events: {
      requested: (approval) => control.publish({ type: 'callApproval.requested', approval }),
      decided: (approval) => control.publish({ type: 'callApproval.decided', approval }),
    },
  });
  const visibility = storeVisibility(store);
  return {
    store,
    callApprovals,
    visibility,
    views: { policy: () => store.view(), callApprovals: () => callApprovals.views() },
    commands: {
      decideCall: (decision) => callApprovals.decide(decision),
      savePolicy: ({ text, baseVersion }) => store.replace(text, baseVersion),
      callApprovalArguments: ({ askId }) => callApprovals.heldArguments(askId),
      previewAlwaysAllow: ({ askId }) => callApprovals.previewAlwaysAllow(askId),
      undoAlwaysAllow: ({ version }) => store.undoAlwaysAllow(version),
      sessionGrants: () => callApprovals.sessionGrants(),
      revokeSessionGrant: ({ grantId }) => callApprovals.revokeSessionGrant(grantId),
      decisionLog: ({ limit }) => callApprovals.decisionLog(limit),
      setToolVisible: ({ tool, visible, baseVersion }) => store.setToolVisible(tool, visible, baseVersion),
    },
    dispose() {
      visibility.close();
      stopEvents();
      stopRefusals();
      callApprovals.close();
      opened.close();
    },
  };
}
