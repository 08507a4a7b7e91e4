/**
 * What the host needs from the recovery journal (src-main/recovery). Injected so the host never
 * writes workspace files itself and tests can pass the real journal or a recording one.
 */
import type { RecoveryView } from '../contracts/index.js';
import type { CommitReceipt, CommitRequest } from '../recovery/index.js';

export interface HostJournal {
  commit(request: CommitRequest): Promise<CommitReceipt>;
  status(): RecoveryView;
  /** Workspaces with unresolved recovery evidence (null root: every workspace); commits there fail with its code. */
  blockedWorkspaces(): ReadonlyArray<{ workspaceRoot: string | null; code: 'RecoveryPending' | 'RecoveryVersionUnsupported'; detail: string }>;
}
