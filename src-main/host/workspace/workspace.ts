/**
 * One open workspace: its identity, trust, the disk-backed base snapshot, the effective snapshot
 * (the head of an active transaction, if any) and a language service that reads from it.
 *
 * The compiler options and the language service are made on first use, not at open: they need the
 * TypeScript compiler (about 45 MB resident), which a workspace that is only read, staged and committed
 * never uses. A reload drops both, so the next use reads the configuration afresh.
 */
import { randomUUID } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type ts from 'typescript';
import { JunctionError, next } from '../../contracts/index.js';
import { createSnapshotLanguageService, type SnapshotLanguageService } from './language-service.js';
import { loadDocuments, readProjectConfig, type ProjectConfig } from './loader.js';
import { Snapshot, type SnapshotIdentity } from './snapshot.js';
import { watchDirectory, type DirectoryWatcher } from './watcher.js';

export interface WorkspaceOpenOptions {
  trusted: boolean;
  /** Watch the directory and reload on change (default true). */
  watch?: boolean;
  debounceMs?: number;
  onReloaded?: (workspace: Workspace) => void;
  onWatchError?: (error: unknown) => void;
}

/** The absolute and the symlink-resolved form of a workspace root; `WorkspaceNotFound` unless it is a directory. */
export async function resolveWorkspaceRoot(root: string): Promise<{ absolute: string; real: string }> {
  const absolute = resolve(root);
  try {
    const real = await realpath(absolute);
    if ((await stat(real)).isDirectory()) return { absolute, real };
  } catch {
    // reported below with the same code as a non-directory
  }
  throw new JunctionError('WorkspaceNotFound', `'${root}' is not a readable directory.`, { next: next('fixArguments', 'workspace-open'), details: { root } });
}

export class Workspace {
  readonly workspaceId = randomUUID();
  readonly root: string;
  readonly realRoot: string;
  readonly name: string;
  private trust: boolean;
  private workspaceEpoch = 0;
  private base: Snapshot;
  private head: { snapshot: Snapshot; revision: number } | undefined;
  private config: ProjectConfig | undefined;
  private service: SnapshotLanguageService | undefined;
  private watcher: DirectoryWatcher | undefined;
  private reloading: Promise<boolean> = Promise.resolve(false);
  private readonly onReloaded: ((workspace: Workspace) => void) | undefined;

  private constructor(root: string, realRoot: string, base: Snapshot, options: WorkspaceOpenOptions) {
    this.root = root;
    this.realRoot = realRoot;
    this.name = basename(realRoot);
    this.trust = options.trusted;
    this.base = base;
    this.onReloaded = options.onReloaded;
  }

  static async open(root: string, options: WorkspaceOpenOptions): Promise<Workspace> {
    const { absolute, real } = await resolveWorkspaceRoot(root);
    const workspace = new Workspace(absolute, real, Snapshot.fromTexts(await loadDocuments(real)), options);
    if (options.watch !== false) {
      workspace.watcher = watchDirectory(real, options.debounceMs ?? 150, () => void workspace.reload(false), options.onWatchError ?? (() => undefined));
    }
    return workspace;
  }

  get trusted(): boolean {
    return this.trust;
  }

  markTrusted(): void {
    this.trust = true;
  }

  get epoch(): number {
    return this.workspaceEpoch;
  }

  get compilerOptions(): ts.CompilerOptions {
    return this.projectConfig.options;
  }

  /** Read from `tsconfig.json` (or the defaults) on first use after open or reload; loads TypeScript. */
  get projectConfig(): ProjectConfig {
    return (this.config ??= readProjectConfig(this.realRoot));
  }

  /** The state on disk as last loaded or committed. */
  baseSnapshot(): Snapshot {
    return this.base;
  }

  /** What queries see: the active transaction's head, else the base. */
  snapshot(): Snapshot {
    return this.head?.snapshot ?? this.base;
  }

  identity(): SnapshotIdentity {
    return { workspaceId: this.workspaceId, workspaceEpoch: this.workspaceEpoch, snapshotId: this.snapshot().snapshotId, transactionRevision: this.head?.revision ?? 0 };
  }

  /** The language service over `snapshot` (default: the effective snapshot). Synchronous use only; the first use loads TypeScript. */
  languageService(snapshot: Snapshot = this.snapshot()): ts.LanguageService {
    this.service ??= createSnapshotLanguageService(this.realRoot, this.projectConfig.options);
    return this.service.at(snapshot);
  }

  /** Called by the transaction layer whenever the head changes; undefined detaches. */
  setHead(head: { snapshot: Snapshot; revision: number } | undefined): void {
    this.head = head;
  }

  /** After a commit the disk holds `snapshot`; the watcher's echo of our own writes must not bump the epoch. */
  setCommitted(snapshot: Snapshot): void {
    this.base = snapshot;
    this.head = undefined;
  }

  /**
   * Re-reads the directory. `force` (an explicit reload) always bumps the epoch; a watcher reload
   * bumps it only when the contents differ. Returns whether the epoch changed. Reloads never overlap.
   */
  reload(force: boolean): Promise<boolean> {
    this.reloading = this.reloading.then(async () => {
      const loaded = Snapshot.fromTexts(await loadDocuments(this.realRoot));
      if (!force && loaded.sameContentAs(this.base)) return false;
      this.base = loaded;
      this.config = undefined;
      this.dropLanguageService();
      this.workspaceEpoch += 1;
      this.onReloaded?.(this);
      return true;
    }, () => false);
    return this.reloading;
  }

  close(): void {
    this.watcher?.close();
    this.dropLanguageService();
  }

  private dropLanguageService(): void {
    this.service?.dispose();
    this.service = undefined;
  }
}
