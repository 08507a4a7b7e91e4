/** How notices behave on screen: how long each stays, how many show at once, where its subject lives. Pure. */
import type { NoticeSubject } from '../store/types.js';
import type { ConsoleNotice } from '../store/store.js';
import type { ViewId } from '../views/registry.js';

/** Notices shown at once; the rest wait behind a "more" button, so the strip never grows over the page. */
export const SHOWN_NOTICES = 3;

const TTL_MS: Record<ConsoleNotice['level'], number> = { ok: 4_000, info: 8_000, warning: 15_000, error: 30_000 };

/** How long a notice stays: what it asks for, else longer the more it matters. */
export function noticeTtl(notice: Pick<ConsoleNotice, 'level' | 'ttlMs'>): number {
  return notice.ttlMs ?? TTL_MS[notice.level];
}

/** Where a notice's subject is shown: the view, and the call, plugin or elicitation to open there. */
export interface SubjectTarget {
  view: ViewId;
  callId?: string;
  connectionId?: string;
  elicitationId?: string;
}

export function subjectTarget(subject: NoticeSubject): SubjectTarget {
  switch (subject.kind) {
    case 'plugin':
      return { view: 'plugins', connectionId: subject.id };
    case 'call':
      return { view: 'calls', callId: subject.id };
    case 'elicitation':
      return { view: 'calls', elicitationId: subject.id };
    case 'policy':
      return { view: 'policy' };
    case 'audit':
      return { view: 'calls' };
    case 'bridge':
      return { view: 'bridge' };
    case 'transaction':
      return { view: 'transactions' };
    case 'agent':
      return { view: 'agents' };
  }
}

/** The newest `SHOWN_NOTICES` (or all when expanded) and how many wait behind them. */
export function shownNotices(notices: readonly ConsoleNotice[], expanded: boolean): { shown: ConsoleNotice[]; hidden: number } {
  if (expanded || notices.length <= SHOWN_NOTICES) return { shown: [...notices], hidden: 0 };
  return { shown: notices.slice(-SHOWN_NOTICES), hidden: notices.length - SHOWN_NOTICES };
}
