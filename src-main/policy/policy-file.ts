/**
 * The approval policy file: read and validated at start, watched while Junction runs, replaced
 * atomically (temp file + fsync + rename) on save. The file is the operator's as much as Junction's: an
 * edit made by hand is handed to the store (which reloads it or keeps the old policy and warns), and a
 * save is refused with `Conflict` when the file no longer holds what Junction last read or wrote, so a
 * console save or an "always allow" never overwrites a hand edit.
 */
import { randomUUID } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { replaceDurably } from '../recovery/index.js';
import { JunctionError, next } from '../contracts/index.js';
import type { PolicyDocument } from '../contracts/index.js';
import { errorMessage } from '../shared/index.js';
import type { PolicyPersistence } from './policy-store.js';
import { parsePolicyText } from './rules.js';

/** Editors write a file in several steps (truncate, write, rename); one read once they have settled. */
const SETTLE_MS = 75;

async function readPolicyText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new JunctionError('PolicyInvalid', `approval-policy ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}); create it, e.g. {"rules":[]}.`);
  }
}

export interface PolicyFileOptions {
  /** What the file held when the policy was loaded. */
  text: string;
  /** The file now holds something else, written outside Junction (text, or the read failure). */
  onOutsideEdit(edit: { text: string } | { error: JunctionError }): void;
}

export class PolicyFile implements PolicyPersistence {
  private known: string;
  private watcher: FSWatcher | undefined;
  private settle: NodeJS.Timeout | undefined;
  private closed = false;
  /** Outside edits handed to the store that it has not finished taking in; a save waits for none. */
  private unsettled = 0;
  /**
   * Checks and saves run one at a time: a watcher's read that began before a save's rename and ended
   * after it would otherwise compare the older text with the newer `known` and hand it to the store as
   * an outside edit, putting back the policy the save had just replaced.
   */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly options: PolicyFileOptions,
  ) {
    this.known = options.text;
  }

  /** Reads the policy file at start: its validated document and the adapter that keeps it. */
  static async open(path: string, onOutsideEdit: PolicyFileOptions['onOutsideEdit']): Promise<{ file: PolicyFile; document: PolicyDocument }> {
    const text = await readPolicyText(path);
    const document = parsePolicyText(text, `approval-policy ${path}`);
    return { file: new PolicyFile(path, { text, onOutsideEdit }), document };
  }

  /** Watches the directory, not the file: an editor's or our own rename replaces the file's inode. */
  watch(): void {
    if (this.watcher || this.closed) return;
    const name = basename(this.path);
    this.watcher = watch(dirname(this.path), { persistent: false }, (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(this.settle);
      this.settle = setTimeout(() => void this.check(), SETTLE_MS);
    });
    // A watcher error (the directory removed) leaves the save-time check, which still refuses to overwrite.
    this.watcher.on('error', () => this.stopWatching());
  }

  /** The text on disk, told to the store when it is not what Junction last read or wrote. */
  check(): Promise<boolean> {
    return this.inTurn(() => this.checkNow());
  }

  private inTurn<T>(run: () => Promise<T>): Promise<T> {
    const result = this.turn.then(run);
    this.turn = result.catch(() => undefined);
    return result;
  }

  private async checkNow(): Promise<boolean> {
    if (this.closed) return false;
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (this.closed) return false;
      const code = (error as NodeJS.ErrnoException).code ?? errorMessage(error);
      this.unsettled += 1;
      this.options.onOutsideEdit({ error: new JunctionError('PolicyInvalid', `approval-policy ${this.path}: cannot be read (${code})`) });
      return true;
    }
    if (this.closed || text === this.known) return false;
    this.known = text;
    this.unsettled += 1;
    this.options.onOutsideEdit({ text });
    return true;
  }

  /** The store has taken in (loaded or refused) one outside edit handed to it. */
  settled(): void {
    this.unsettled = Math.max(0, this.unsettled - 1);
  }

  /** Junction now holds `text` (an outside edit it loaded): a later save is based on it. */
  accept(text: string): void {
    this.known = text;
  }

  save(text: string): Promise<void> {
    return this.inTurn(() => this.saveNow(text));
  }

  private async saveNow(text: string): Promise<void> {
    // An edit seen by the watcher but queued behind this save is an outside change too.
    if ((await this.checkNow()) || this.unsettled > 0) {
      throw new JunctionError('Conflict', `approval-policy ${this.path} was changed outside Junction since it was read; the change was not written. Reload the policy and apply it again.`, {
        next: next('refreshSnapshot'),
        details: { path: this.path },
      });
    }
    const temp = join(dirname(this.path), `.${basename(this.path)}.${randomUUID()}.tmp`);
    // Set before the rename, so the watcher that sees it recognises Junction's own write.
    const previous = this.known;
    this.known = text;
    try {
      await replaceDurably(this.path, text, temp);
    } catch (error) {
      this.known = previous;
      // The policy file itself is untouched; only a partial temp file may be left to remove.
      await rm(temp, { force: true });
      throw error;
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.settle);
    this.stopWatching();
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}
