/** What the audit trail holds and how it is asked for it. Plain data shared by the store, export and the composition root. */
import type { CallJson, CallView } from '../contracts/index.js';

/** A finished call as handed to the trail: unredacted, redacted by the store before anything is written. */
export interface AuditCallInput {
  call: CallView;
  /** Arguments and result as JSON.stringify wrote them (see redact.ts `mayRedact`). */
  json: CallJson;
  /** The policy decision that admitted or refused the call (`{ action, ruleIndex, reason, decidedBy, decision }`); null when no policy decided. */
  policy: unknown;
  /** Who decided (a rule, the operator, a timeout); null when no policy decided. */
  decidedBy: string | null;
  /** The call this one replays, when the operator replayed a recorded call. */
  replayOf?: string;
}

export type AuditEventKind =
  | 'transaction.staged'
  | 'transaction.reviewed'
  | 'transaction.committed'
  | 'transaction.rolledBack'
  | 'transaction.revertedTo'
  | 'approval.requested'
  | 'approval.decided'
  | 'callApproval.decided'
  | 'plugin.connected'
  | 'plugin.disconnected'
  | 'policy.edited';

export interface AuditEventInput {
  kind: AuditEventKind;
  at: number;
  workspaceId?: string;
  transactionId?: string;
  data: unknown;
}

/** A call as stored: the CallView's fields plus redacted previews as JSON text. */
export interface StoredCall {
  seq: number;
  call: CallView;
  arguments: unknown;
  result: unknown;
  /** JSON pointers into `{ arguments, result }` whose values were redacted. */
  redacted: string[];
  truncated: boolean;
  policy: unknown;
  decidedBy: string | null;
  replayOf: string | null;
}

export interface StoredEvent {
  seq: number;
  kind: AuditEventKind;
  at: number;
  workspaceId: string | null;
  transactionId: string | null;
  data: unknown;
}

export interface CallQuery {
  /**
   * Words to find in the tool, agent, target, call id, error code, redacted arguments or result: every
   * white-space separated term must match adjacent words, its last word as a prefix (see search.ts).
   */
  text?: string;
  status?: CallView['status'];
  tool?: string;
  agent?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  /** Cursor: only calls recorded before this sequence number (from a previous page's `nextBefore`). */
  before?: number;
  limit: number;
}

export interface CallPage {
  items: StoredCall[];
  /** Pass as `before` for the next (older) page; absent on the last page. */
  nextBefore?: number;
}

/** An upgrade of recorded history in progress; the versions and count are known once it has counted the calls. */
export interface AuditUpgrade {
  from?: number;
  to?: number;
  /** The recorded calls being indexed. */
  calls?: number;
  /** The share of them indexed so far, from 0 to 1. */
  done?: number;
  /** Epoch ms, by the store's clock. */
  startedAt: number;
}

export interface AuditStatus {
  path: string;
  state: 'open' | 'upgrading' | 'unavailable' | 'disabled';
  upgrade?: AuditUpgrade;
  /** Why the trail is unavailable, in words for the operator. */
  reason?: string;
  queued: number;
  /** Records dropped because the database stayed unavailable longer than the queue could hold. */
  dropped: number;
}
