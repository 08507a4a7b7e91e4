/**
 * The spill file's state for the store: taking what an earlier run kept, keeping what this run could
 * not write, and removing the file once the last of its records is written (or dropped). The file is on
 * disk exactly while `pending` is above zero; its reading and writing are `spill.ts`.
 */
import { errorMessage, type Logger } from '../shared/index.js';
import type { PreparedRecord } from './rows.js';
import { loadSpill, removeSpill, saveSpill, spillPath } from './spill.js';

export class SpillKeeper {
  private readonly path: string;
  /** Records at the front of the store's queue (or in flight) that an earlier run kept and are not written yet. */
  private pending = 0;

  constructor(
    dbPath: string,
    private readonly logger: Logger,
  ) {
    this.path = spillPath(dbPath);
  }

  /**
   * Records an earlier run could not write, to go first: they are older than anything recorded from now
   * on. The file stays until they are written, so a run that cannot write them either keeps them too.
   */
  take(): PreparedRecord[] {
    let loaded: { records: PreparedRecord[]; damaged: number };
    try {
      loaded = loadSpill(this.path);
    } catch (error) {
      this.logger.warn(`audit: the records an earlier run kept in ${this.path} could not be read: ${errorMessage(error)}`);
      return [];
    }
    if (loaded.damaged > 0) this.logger.warn(`audit: ${loaded.damaged} damaged lines of ${this.path} were skipped`);
    if (loaded.records.length === 0) {
      if (loaded.damaged > 0) this.forget();
      return [];
    }
    this.logger.info(`audit: writing ${loaded.records.length} records an earlier run kept in ${this.path}`);
    this.pending = loaded.records.length;
    return loaded.records;
  }

  /** How many of a batch of `size` taken from the queue's front came from the file (and may be in the database already). */
  leading(size: number): number {
    return Math.min(this.pending, size);
  }

  /** `count` records left the front of the queue, written or dropped: the file goes with the last of its records. */
  settle(count: number): void {
    if (this.pending === 0) return;
    this.pending = Math.max(0, this.pending - count);
    if (this.pending === 0) this.forget();
  }

  /** At close: what is still unwritten (spilled records included) goes to the file for the next run; `reason` says why. */
  keep(unwritten: PreparedRecord[], reason: string): void {
    if (unwritten.length === 0) return;
    try {
      saveSpill(this.path, unwritten);
      this.logger.warn(`audit: ${unwritten.length} records could not be written before closing (${reason}); they are kept in ${this.path} and written when the trail next opens`);
    } catch (error) {
      this.logger.warn(`audit: ${unwritten.length} records could not be written before closing (${reason}), nor kept in ${this.path}: ${errorMessage(error)}`);
    }
  }

  private forget(): void {
    try {
      removeSpill(this.path);
    } catch (error) {
      this.logger.warn(`audit: ${this.path} holds records already written and could not be removed: ${errorMessage(error)}`);
    }
  }
}
