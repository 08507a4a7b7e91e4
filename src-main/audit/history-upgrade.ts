/**
 * The state of an upgrade of recorded history running in the writer thread, for the store: its start,
 * the thread's notices, its end (committed, rolled back, or stopped), the words the console shows
 * meanwhile, and those waiting for it to end. While it runs, records queue and history waits for it.
 * No I/O but the log.
 */
import type { Logger } from '../shared/index.js';
import type { AuditUpgrade } from './records.js';
import type { WriterNotice } from './writer-protocol.js';

/** How an upgrade ended without committing. */
export type UpgradeFailure = 'rolled-back' | 'writer-stopped' | 'closed';

export interface HistoryUpgradeOptions {
  path: string;
  logger: Logger;
  /** The store's queue bound, for the log's words. */
  maxQueue: number;
  now: () => number;
}

export class HistoryUpgrade {
  private current: AuditUpgrade | undefined;
  private waiters: Array<() => void> = [];
  /** The store's `dropped` when the upgrade started: what the queue lost during it is told when it ends. */
  private droppedAtStart = 0;

  constructor(private readonly options: HistoryUpgradeOptions) {}

  get running(): boolean {
    return this.current !== undefined;
  }

  /** Resolves when no upgrade runs (at once when none does): it ended, failed, or the store closed. */
  ended(): Promise<void> {
    if (!this.current) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The store asked the writer thread to open (and so upgrade) the database; `dropped` is the store's count now. */
  start(dropped: number): void {
    this.current = { startedAt: this.options.now() };
    this.droppedAtStart = dropped;
  }

  /**
   * The writer thread is about to run an upgrade's transaction (the start, or a retry after a failure), or
   * is running it. True when this notice began or renewed an upgrade worth waiting for.
   */
  notice(notice: WriterNotice, dropped: number): boolean {
    if (notice.notice === 'progress') {
      if (this.current) this.current.done = notice.done;
      return false;
    }
    const { upgrade } = notice;
    // A new, empty file is migrated in no time: only recorded calls make an upgrade worth waiting for.
    if (upgrade.calls === 0) return false;
    if (!this.current) this.droppedAtStart = dropped;
    this.current = { ...upgrade, startedAt: this.current?.startedAt ?? this.options.now() };
    this.options.logger.info(
      `audit: upgrading ${this.options.path} from schema ${upgrade.from} to ${upgrade.to}, indexing ${upgrade.calls} recorded calls for search; history is unavailable until it ends, and calls are recorded once it has (up to ${this.options.maxQueue} held meanwhile, the oldest dropped beyond)`,
    );
    return true;
  }

  /** The upgrade ended (`failure` says how, when it did not commit): history and the queue go on. */
  end(dropped: number, failure?: UpgradeFailure): void {
    const upgrade = this.current;
    if (!upgrade) return;
    this.current = undefined;
    const { path, logger, maxQueue } = this.options;
    if (failure) logger.warn(`audit: ${failureWords(failure, path, upgrade)}; it runs again when the database is next opened`);
    const lost = dropped - this.droppedAtStart;
    if (lost > 0) logger.warn(`audit: ${lost} records were dropped during the upgrade of ${path}: more calls ended than the ${maxQueue} it holds`);
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** The upgrade as the status shows it, with the console's words for it; undefined while none runs. */
  status(): { upgrade: AuditUpgrade; reason: string } | undefined {
    if (!this.current) return undefined;
    return { upgrade: { ...this.current }, reason: upgradeReason(this.current, this.options.now()) };
  }
}

const oldSchema = (upgrade: AuditUpgrade): string => (upgrade.from === undefined ? 'its old schema' : `schema ${upgrade.from}`);

function failureWords(failure: UpgradeFailure, path: string, upgrade: AuditUpgrade): string {
  const stays = `${path} stays wholly at ${oldSchema(upgrade)}`;
  switch (failure) {
    case 'rolled-back':
      return `the upgrade failed and was rolled back, so ${stays}`;
    case 'writer-stopped':
      return `the writer thread stopped, so the upgrade was rolled back and ${stays}`;
    case 'closed':
      return `closing stopped the upgrade, so it was rolled back and ${stays}`;
  }
}

/** Words for the console while an upgrade runs: what it does, for how many calls, since when. */
function upgradeReason(upgrade: AuditUpgrade, now: number): string {
  const what = upgrade.calls === undefined ? 'recorded calls' : `${upgrade.calls.toLocaleString('en-US')} recorded calls`;
  const schema = upgrade.from === undefined ? '' : ` from schema ${upgrade.from} to ${upgrade.to}`;
  const done = upgrade.done === undefined ? '' : `, ${Math.floor(upgrade.done * 100)} % done`;
  return `The audit trail is being upgraded${schema}: indexing ${what} for search (running for ${Math.round((now - upgrade.startedAt) / 1000)} s${done}). History is available when it ends; calls are recorded meanwhile.`;
}
