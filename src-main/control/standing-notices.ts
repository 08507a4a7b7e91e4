/**
 * Notices that stand: a server notice raised with a lifetime of its own (`ttlMs`) is about a condition
 * that lasts (the audit trail not recording), and is often raised at start-up, before any console is
 * open. The control hub keeps those for their lifetime and carries them in the snapshot, so a console
 * opened later still shows them. Notices without one are moments (a refused edit, a plugin's message)
 * and reach only the consoles that were watching.
 */
import type { ControlEvent, OperatorNotice } from '../contracts/index.js';

/** Standing notices kept at once, the oldest dropped first (the console keeps as many). */
export const MAX_STANDING_NOTICES = 20;

export class StandingNotices {
  private kept: OperatorNotice[] = [];

  observe(event: ControlEvent): void {
    if (event.type !== 'notice.raised' || event.notice.ttlMs === undefined) return;
    const notice = event.notice;
    // A notice raised again under its id replaces the earlier one, as on the console's screen.
    this.kept = [...this.kept.filter((n) => n.id !== notice.id), notice].slice(-MAX_STANDING_NOTICES);
  }

  /** Those whose lifetime has not run out at `now`, oldest first. */
  list(now: number): OperatorNotice[] {
    this.kept = this.kept.filter((n) => n.at + (n.ttlMs ?? 0) > now);
    return [...this.kept];
  }
}
