/** The history views' words for the audit trail's state, when its history cannot be shown. */
import type { HistoryAvailability } from '../store/types.js';

/** Short, for a toolbar; the server's full reason goes in its tooltip. Undefined while history is available. */
export function historyStatusLabel(page: HistoryAvailability): string | undefined {
  if (page.available || !page.reason) return undefined;
  if (!page.upgrade) return 'History unavailable';
  const calls = page.upgrade.calls === undefined ? 'recorded calls' : `${page.upgrade.calls.toLocaleString('en-US')} recorded calls`;
  const done = page.upgrade.done === undefined ? '' : ` (${Math.floor(page.upgrade.done * 100)} %)`;
  return `Upgrading the audit trail: indexing ${calls}${done}…`;
}
