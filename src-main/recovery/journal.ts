/**
 * The recovery journal: owns one state directory, recovers it at open, and commits file changes to
 * workspaces atomically and durably.
 *
 * Concurrency: one commit at a time per workspace. A second commit to a workspace (or an enclosing or
 * nested one) while one runs fails fast with `ConcurrentCommit` instead of queueing: the host allows at
 * most one active transaction per workspace, so an overlap is a race the caller must see, and a queued
 * commit would only run against checksums that are stale by then. Commits to unrelated workspaces run
 * in parallel. recover() never runs while a commit does, since it would roll that commit back under it.
 */
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { RecoveryEntryView, RecoveryView } from '../contracts/index.js';
import { JunctionError, next, type ErrorCode } from '../contracts/index.js';
import { commitTransaction, type JournalHooks } from './commit-transaction.js';
import { validateCommitRequest } from './commit-request.js';
import type { CommitReceipt, CommitRequest } from './contract.js';
import { ensureDirectoryDurably, isDiskFull, removeIfPresent, replaceDurably } from './durable-fs.js';
import { listManifests, readProgress, type ManifestListing } from './manifest-store.js';
import type { JournalManifest, OwnerRecord } from './model.js';
import { CURRENT_FORMAT_VERSION, SUPPORTED_FORMAT_VERSIONS, decodeManifest, encodeOwner } from './persisted/index.js';
import { resolveManifest, type ResolveResult } from './resolve-manifest.js';
import { stateLayout, MANIFEST_SUFFIX, type StateLayout } from './state-dir/layout.js';
import { acquireStateLock, type StaleLock, type StateLock } from './state-dir/lock.js';
import { assertWorkspaceRoot, removeCommitTemps } from './workspace-files.js';

export interface JournalOptions {
  stateDir: string;
  instanceId: string;
  hooks?: JournalHooks;
  now?: () => number;
}

export type BlockingCode = Extract<ErrorCode, 'RecoveryVersionUnsupported' | 'RecoveryPending'>;

export interface BlockedWorkspace {
  /** null when the evidence does not say which workspace it belongs to: then every workspace is blocked. */
  workspaceRoot: string | null;
  manifestPath: string;
  code: BlockingCode;
  detail: string;
}

/**
 * Exactly the console's view, no extra fields, so it passes closed output schemas. A stale lock taken
 * over at open() appears as a `clean` entry for the lock file; codes of blocking evidence are in
 * blockedWorkspaces().
 */
export type RecoveryReport = RecoveryView;

export interface Journal {
  readonly stateDir: string;
  /** Takes the state-directory lock, writes the owner record and runs recovery. */
  open(): Promise<RecoveryReport>;
  commit(request: CommitRequest): Promise<CommitReceipt>;
  /** Resolves every incomplete manifest; unsupported or corrupt evidence is kept and blocks its workspace. */
  recover(): Promise<RecoveryReport>;
  status(): RecoveryReport;
  blockedWorkspaces(): BlockedWorkspace[];
  /** The stale lock open() took over, or null when the state directory was free. */
  lockTakeover(): StaleLock | null;
  /**
   * Removes commit temp files (`.jx-<manifest>-<n>.tmp`) a failed or interrupted commit left in a
   * workspace; skipped while a commit to it runs. Returns how many were removed.
   */
  sweepTemps(workspaceRoot: string): Promise<number>;
  /** Waits for running commits, then releases the lock. */
  close(): Promise<void>;
}

const STATUS_NEXT = next('inspectStatus', 'recovery-status');

function overlaps(a: string, b: string): boolean {
  return a === b || b.startsWith(a.endsWith(sep) ? a : a + sep) || a.startsWith(b.endsWith(sep) ? b : b + sep);
}

/** Reads `workspaceRoot` from evidence it cannot otherwise interpret, only to scope the block it causes. */
function hintedWorkspaceRoot(text: string): string | null {
  try {
    const raw = JSON.parse(text) as { workspaceRoot?: unknown };
    return typeof raw.workspaceRoot === 'string' ? raw.workspaceRoot : null;
  } catch {
    return null;
  }
}

function describeResolved(result: Extract<ResolveResult, { kind: 'resolved' }>, progressNote: string): string {
  if (result.direction === 'forward') return `completion marker was durable; rolled forward (${result.unchanged} files verified)${progressNote}`;
  return `not completed; rolled back: ${result.restored} restored, ${result.removed} removed, ${result.unchanged} already old${progressNote}`;
}

function describeConflict(result: Extract<ResolveResult, { kind: 'conflict' }>): string {
  const files = result.conflicts.map((c) => c.path);
  return `could not roll ${result.direction === 'forward' ? 'forward' : 'back'}: ${result.reason}${files.length ? ` (${files.slice(0, 5).join(', ')}${files.length > 5 ? ', …' : ''})` : ''}; evidence kept`;
}

export function createJournal(options: JournalOptions): Journal {
  const layout: StateLayout = stateLayout(options.stateDir);
  const ownerTemp = `${layout.ownerFile}.tmp`;
  const now = options.now ?? Date.now;
  let lock: StateLock | null = null;
  let owner: OwnerRecord | null = null;
  let recovering = false;
  let entries: RecoveryEntryView[] = [];
  let blocked: BlockedWorkspace[] = [];
  const active = new Map<string, Promise<unknown>>();

  function report(): RecoveryReport {
    const view: RecoveryReport = { stateDir: layout.root, healthy: blocked.length === 0, entries: [...takeoverEntries(), ...entries] };
    if (owner) view.owner = { ...owner };
    const unsupported = blocked.some((b) => b.code === 'RecoveryVersionUnsupported');
    const failed = blocked.some((b) => b.code === 'RecoveryPending');
    const guidance = [
      unsupported
        ? `Recovery evidence in a format this Junction cannot read (it reads formats ${SUPPORTED_FORMAT_VERSIONS.join(', ')}) is kept untouched. Start the same or a newer compatible Junction version to complete recovery; do not edit version fields.`
        : '',
      failed ? 'Some recovery evidence could not be resolved and is kept; inspect the listed manifests and the affected files, then run recovery again.' : '',
    ].filter(Boolean);
    if (guidance.length) view.guidance = guidance.join(' ');
    return view;
  }

  function takeoverEntries(): RecoveryEntryView[] {
    const stale = lock?.takenOver;
    if (!stale || !owner) return [];
    const who = `instance ${stale.instanceId ?? 'unknown'} (pid ${stale.pid ?? 'unknown'})`;
    return [{ manifestPath: layout.lockFile, formatVersion: null, outcome: 'clean', files: 0, detail: `took over the stale lock of ${who}: ${stale.reason}`, at: owner.startedAt }];
  }

  function block(entry: RecoveryEntryView, workspaceRoot: string | null, code: BlockingCode): void {
    entries.push(entry);
    blocked.push({ workspaceRoot, manifestPath: entry.manifestPath, code, detail: entry.detail });
  }

  async function recoverOne(name: string): Promise<void> {
    const manifestPath = join(layout.manifestsDir, name);
    const at = now();
    let text: string;
    try {
      text = await readFile(manifestPath, 'utf8');
    } catch (error) {
      block({ manifestPath, formatVersion: null, outcome: 'failed', files: 0, detail: `manifest could not be read: ${(error as Error).message}; evidence kept`, at }, null, 'RecoveryPending');
      return;
    }
    const decoded = decodeManifest(text);
    if (decoded.kind === 'unsupported') {
      const detail = `format ${decoded.formatVersion} is not supported (supported: ${SUPPORTED_FORMAT_VERSIONS.join(', ')}); evidence kept untouched`;
      block({ manifestPath, formatVersion: decoded.formatVersion, outcome: 'unsupported', files: 0, detail, at }, hintedWorkspaceRoot(text), 'RecoveryVersionUnsupported');
      return;
    }
    const expectedId = name.slice(0, -MANIFEST_SUFFIX.length);
    if (decoded.kind === 'corrupt' || decoded.value.manifestId !== expectedId) {
      const detail = decoded.kind === 'corrupt' ? `manifest is unreadable: ${decoded.reason}; evidence kept` : `manifest id ${decoded.value.manifestId} does not match its file name; evidence kept`;
      block({ manifestPath, formatVersion: decoded.formatVersion, outcome: 'failed', files: 0, detail, at }, hintedWorkspaceRoot(text), 'RecoveryPending');
      return;
    }
    const manifest = decoded.value;
    const base = { manifestPath, transactionId: manifest.transactionId, workspaceRoot: manifest.workspaceRoot, formatVersion: decoded.formatVersion, files: manifest.files.length };
    const applied = (await readProgress(layout, manifest.manifestId, decoded.formatVersion)).filter((p) => p.phase === 'applied').length;
    const progressNote = manifest.phase === 'completed' ? '' : `; ${applied} of ${manifest.files.length} files had been applied`;
    let result: ResolveResult;
    try {
      result = await resolveManifest(layout, manifest);
    } catch (error) {
      block({ ...base, outcome: 'failed', detail: `recovery failed: ${(error as Error).message}; evidence kept`, at }, manifest.workspaceRoot, 'RecoveryPending');
      return;
    }
    if (result.kind === 'conflict') {
      block({ ...base, outcome: 'failed', detail: describeConflict(result), at }, manifest.workspaceRoot, 'RecoveryPending');
      return;
    }
    entries.push({ ...base, outcome: result.direction === 'forward' ? 'completed' : 'reverted', detail: describeResolved(result, progressNote), at });
  }

  async function recover(): Promise<RecoveryReport> {
    if (!lock) throw notOpen();
    if (active.size > 0) throw new JunctionError('ConcurrentCommit', 'Recovery cannot run while a commit is in progress.', { next: next('retryLater', 'recovery-status') });
    if (recovering) throw new JunctionError('RecoveryPending', 'Recovery is already running.', { next: STATUS_NEXT });
    recovering = true;
    try {
      entries = [];
      blocked = [];
      const listing = await removeStaleTemps();
      for (const name of listing.manifests) await recoverOne(name);
      return report();
    } finally {
      recovering = false;
    }
  }

  /** Partial manifest and owner writes: never evidence (their rename never happened), and on a full disk they hold the space. */
  async function removeStaleTemps(): Promise<ManifestListing> {
    const listing = await listManifests(layout);
    for (const temp of listing.staleTemps) await removeIfPresent(join(layout.manifestsDir, temp));
    await removeIfPresent(ownerTemp);
    return listing;
  }

  function diskFull(error: unknown, doing: string): unknown {
    if (!isDiskFull(error)) return error;
    return new JunctionError('DiskFull', `No space left on the device ${doing}; free some space and try again.`, {
      next: next('retryLater'),
      details: { stateDir: layout.root },
      cause: error,
    });
  }

  function notOpen(): JunctionError {
    return new JunctionError('RecoveryPending', `The recovery journal for ${layout.root} is not open; open() runs recovery before commits are accepted.`, { next: STATUS_NEXT });
  }

  function refuseIfBlocked(root: string): void {
    const hits = blocked.filter((b) => b.workspaceRoot === null || overlaps(b.workspaceRoot, root));
    if (hits.length === 0) return;
    const code: BlockingCode = hits.some((h) => h.code === 'RecoveryVersionUnsupported') ? 'RecoveryVersionUnsupported' : 'RecoveryPending';
    const why = code === 'RecoveryVersionUnsupported' ? 'holds recovery evidence in a format this Junction cannot read' : 'has unresolved recovery evidence';
    throw new JunctionError(code, `Workspace ${root} ${why}; commits are refused until it is resolved.`, {
      next: STATUS_NEXT,
      details: { workspaceRoot: root, manifests: hits.map((h) => ({ manifestPath: h.manifestPath, code: h.code, detail: h.detail })) },
    });
  }

  function onRollbackFailed(manifest: JournalManifest, result: Extract<ResolveResult, { kind: 'conflict' }>): void {
    block(
      {
        manifestPath: layout.manifestFile(manifest.manifestId),
        transactionId: manifest.transactionId,
        workspaceRoot: manifest.workspaceRoot,
        formatVersion: CURRENT_FORMAT_VERSION,
        outcome: 'failed',
        files: manifest.files.length,
        detail: `commit failed and ${describeConflict(result)}`,
        at: now(),
      },
      manifest.workspaceRoot,
      'RecoveryPending',
    );
  }

  async function commit(input: CommitRequest): Promise<CommitReceipt> {
    if (!lock) throw notOpen();
    if (recovering) throw new JunctionError('RecoveryPending', 'Recovery is running; commit again when it has finished.', { next: STATUS_NEXT });
    const request = validateCommitRequest(input);
    const root = request.workspaceRoot;
    refuseIfBlocked(root);
    const running = [...active.keys()].find((r) => overlaps(r, root));
    if (running !== undefined) {
      throw new JunctionError('ConcurrentCommit', `Another commit to ${running} is in progress; commit again when it has finished.`, { next: next('retryLater', 'transaction-commit'), details: { workspaceRoot: root } });
    }
    const work = (async () => {
      await assertWorkspaceRoot(root);
      try {
        return await commitTransaction({ layout, hooks: options.hooks, now, onRollbackFailed }, request);
      } catch (error) {
        throw diskFull(error, `while committing to ${root} (the commit was rolled back; recovery-status lists anything kept)`);
      }
    })();
    active.set(root, work);
    try {
      return await work;
    } finally {
      active.delete(root);
    }
  }

  async function open(): Promise<RecoveryReport> {
    if (lock) return report();
    const record: OwnerRecord = { instanceId: options.instanceId, pid: process.pid, startedAt: now() };
    let acquired: StateLock;
    try {
      for (const dir of [layout.root, layout.manifestsDir, layout.backupsDir]) await ensureDirectoryDurably(dir);
      acquired = await acquireStateLock(layout, record);
    } catch (error) {
      throw diskFull(error, `in the state directory ${layout.root}`);
    }
    try {
      // Only the lock holder may remove temps; before anything new is written, so a crash's partial writes free their space.
      await removeStaleTemps();
      await replaceDurably(layout.ownerFile, encodeOwner(record), ownerTemp);
      lock = acquired;
      owner = record;
      return await recover();
    } catch (error) {
      lock = null;
      owner = null;
      await acquired.release();
      throw diskFull(error, `in the state directory ${layout.root}`);
    }
  }

  async function sweepTemps(workspaceRoot: string): Promise<number> {
    if ([...active.keys()].some((r) => overlaps(r, workspaceRoot))) return 0;
    return removeCommitTemps(workspaceRoot);
  }

  async function close(): Promise<void> {
    await Promise.allSettled([...active.values()]);
    const held = lock;
    lock = null;
    owner = null;
    await held?.release();
  }

  return {
    stateDir: layout.root,
    open,
    commit,
    recover,
    status: report,
    blockedWorkspaces: () => blocked.map((b) => ({ ...b })),
    lockTakeover: () => (lock?.takenOver ? { ...lock.takenOver } : null),
    sweepTemps,
    close,
  };
}
