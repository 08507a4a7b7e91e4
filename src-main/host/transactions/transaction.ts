/**
 * One transaction over one workspace: an immutable base snapshot and a list of staged revisions,
 * each with its own snapshot and diff. Pure domain: no I/O, time is passed in.
 */
import { createHash } from 'node:crypto';
import type { DiagnosticView, RevisionView, TransactionView } from '../../contracts/index.js';
import { JunctionError, next } from '../../contracts/index.js';
import type { FileChange } from '../../recovery/index.js';
import type { Snapshot } from '../workspace/index.js';
import { composeOrigins, type AppliedCandidate } from './changes.js';
import { diffSnapshots, toFileDiffView, type FileDiff } from './diffs.js';

export interface DiagnosticsDelta {
  added: DiagnosticView[];
  removed: DiagnosticView[];
}

export interface Revision {
  readonly revision: number;
  readonly summary: string;
  readonly stagedAt: number;
  readonly snapshot: Snapshot;
  /** Head path → base path for documents renamed since the base. */
  readonly origins: ReadonlyMap<string, string>;
  /** Diff from the previous revision to this one. */
  readonly files: readonly FileDiff[];
  readonly diagnostics: DiagnosticsDelta;
}

export type TransactionState = TransactionView['state'];

export class Transaction {
  readonly transactionId: string;
  readonly workspaceId: string;
  readonly startedAt: number;
  readonly base: Snapshot;
  private readonly revisions: Revision[] = [];
  private currentState: TransactionState = 'active';

  constructor(init: { transactionId: string; workspaceId: string; startedAt: number; base: Snapshot }) {
    this.transactionId = init.transactionId;
    this.workspaceId = init.workspaceId;
    this.startedAt = init.startedAt;
    this.base = init.base;
  }

  get state(): TransactionState {
    return this.currentState;
  }

  get revision(): number {
    return this.revisions.length;
  }

  head(): Snapshot {
    return this.revisions.at(-1)?.snapshot ?? this.base;
  }

  private origins(): ReadonlyMap<string, string> {
    return this.revisions.at(-1)?.origins ?? new Map();
  }

  history(): readonly Revision[] {
    return this.revisions;
  }

  /** Records a candidate (already applied to head()) as the next revision. */
  stage(candidate: AppliedCandidate, summary: string, stagedAt: number, diagnostics: DiagnosticsDelta = { added: [], removed: [] }): Revision {
    this.assertActive();
    const previous = this.head();
    const revision: Revision = {
      revision: this.revisions.length + 1,
      summary,
      stagedAt,
      snapshot: candidate.snapshot,
      origins: composeOrigins(this.origins(), candidate.renames, candidate.snapshot),
      files: diffSnapshots(previous, candidate.snapshot, candidate.renames),
      diagnostics,
    };
    this.revisions.push(revision);
    return revision;
  }

  /** Drops every revision after `toRevision` (0 returns to the base); the dropped ones are gone. */
  rollbackTo(toRevision: number): void {
    this.assertActive();
    if (!Number.isInteger(toRevision) || toRevision < 0 || toRevision > this.revisions.length) {
      throw new JunctionError('RevisionNotFound', `Revision ${toRevision} does not exist; this transaction has revisions 0..${this.revisions.length}.`, {
        next: next('inspectStatus', 'transaction-preview'),
        details: { toRevision, headRevision: this.revisions.length },
      });
    }
    this.revisions.length = toRevision;
  }

  /** Cumulative diff from the base to the head: exactly what a commit writes. */
  preview(): FileDiff[] {
    return diffSnapshots(this.base, this.head(), this.origins());
  }

  /** Path-wise file changes from base to head, with the checksums the disk must still match. */
  fileChanges(): FileChange[] {
    const base = this.base;
    const head = this.head();
    const changes: FileChange[] = [];
    for (const path of head.paths()) {
      const doc = head.get(path)!;
      const before = base.get(path);
      if (before?.sha256 !== doc.sha256) changes.push({ kind: 'write', path, content: doc.text, expectedBeforeSha256: before?.sha256 ?? null });
    }
    for (const path of base.paths()) if (!head.has(path)) changes.push({ kind: 'delete', path, expectedBeforeSha256: base.get(path)!.sha256 });
    return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Identifies exactly what would be committed; a receipt is bound to it. */
  contentHash(): string {
    const hash = createHash('sha256');
    for (const change of this.fileChanges()) {
      hash.update(`${change.kind}\0${change.path}\0`);
      if (change.kind === 'write') hash.update(change.content);
      hash.update('\0');
    }
    return hash.digest('hex');
  }

  markCommitted(): void {
    this.assertActive();
    this.currentState = 'committed';
  }

  abandon(): void {
    this.assertActive();
    this.currentState = 'rolledBack';
  }

  view(maxDiffChars: number): TransactionView {
    return {
      workspaceId: this.workspaceId,
      transactionId: this.transactionId,
      state: this.currentState,
      startedAt: this.startedAt,
      revisions: this.revisions.map((r) => revisionView(r, maxDiffChars)),
    };
  }

  private assertActive(): void {
    if (this.currentState !== 'active') {
      throw new JunctionError('TransactionRequired', `Transaction ${this.transactionId} is ${this.currentState}; start a new one.`, {
        next: next('startTransaction', 'transaction-start'),
      });
    }
  }
}

export function revisionView(r: Revision, maxDiffChars: number): RevisionView {
  return {
    revision: r.revision,
    summary: r.summary,
    stagedAt: r.stagedAt,
    files: r.files.map((f) => toFileDiffView(f, maxDiffChars)),
    diagnosticsAdded: r.diagnostics.added,
    diagnosticsRemoved: r.diagnostics.removed,
  };
}
