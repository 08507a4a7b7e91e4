/**
 * The three code-action operations over the host's workspaces and transaction pipeline. Every request
 * checks its snapshot before interpreting a path or range; references are bound to one snapshot and
 * consumed only by a successful stage; staging re-discovers the action and requires the same changes.
 */
import { join } from 'node:path';
import type ts from 'typescript';
import { JunctionError, next } from '../../contracts/index.js';
import { assertSnapshot, requireActive, type StageResult, type TransactionService } from '../operations/index.js';
import { lineStarts, resolvePosition, toLineColumn, type Position } from '../transactions/index.js';
import { normaliseRelativePath, type Snapshot, type SnapshotIdentity, type Workspace, type WorkspaceRegistry } from '../workspace/index.js';
import type { ActionDescriptor, CodeFixDescriptor, FixAllScope, PreparedFixAllDescriptor, RefactorDescriptor } from './descriptors.js';
import { DiagnosticsCache } from './diagnostics-cache.js';
import { discoverActions, type DiscoveryKinds } from './discovery.js';
import { ExclusionLog, type ExclusionReport } from './exclusions.js';
import { assertWithinMaxChanges, evaluateFixAll } from './fix-all.js';
import { applicableRefactors, codeFixes, refactorEdits, refactorPosition } from './language-service-calls.js';
import { matchExactlyOne } from './match.js';
import { fingerprintFileChanges, normaliseFileChanges, type NormalisedFile, type NormalisedOperation } from './normalise.js';
import { actionExpired, ReferenceStore, type ReferenceStoreOptions } from './reference-store.js';

export type LanguageServiceOf = (workspace: Workspace, snapshot: Snapshot) => ts.LanguageService;

export interface CodeActionServiceDeps {
  workspaces: Pick<WorkspaceRegistry, 'resolve'>;
  transactions: Pick<TransactionService, 'transactionOf' | 'stage'>;
  references?: ReferenceStoreOptions;
  /** Which language service reads a snapshot; the workspace's own unless a caller composes another. */
  languageService?: LanguageServiceOf;
  now?: () => number;
}

export interface ListRequest {
  workspace?: string | undefined;
  path: string;
  range?: { start: Position; end: Position } | undefined;
  expectedSnapshot: SnapshotIdentity;
  kinds: DiscoveryKinds;
  diagnosticCodes?: number[] | undefined;
  limit: number;
}

export interface ListedAction {
  actionId: string;
  title: string;
  kind: 'codeFix' | 'refactoring';
  /** The language service's fix or refactor name: the provider, for opt-in provenance. */
  provider: string;
  refactorKind?: string;
  location: { path: string; start: number; length: number; line: number; column: number };
  diagnostics?: Array<{ code: number; message: string }>;
  fixAllScopes?: FixAllScope[];
}

export interface PrepareRequest {
  workspace?: string | undefined;
  actionId: string;
  scope: FixAllScope;
  maxChanges: number;
  affectedDocumentsLimit: number;
  expectedSnapshot: SnapshotIdentity;
}

export interface PrepareResult {
  actionId: string;
  scope: FixAllScope;
  changeCount: number;
  affectedDocuments: { items: Array<Omit<NormalisedFile, 'sha256'>>; hasMore: boolean; totalCount: number };
}

export interface StageRequest {
  workspace?: string | undefined;
  actionId: string;
  expectedSnapshot: SnapshotIdentity;
}

export interface CodeActionStatus {
  component: 'code-actions';
  available: true;
  referenceLifetimeMs: number;
  referenceCapacity: number;
  liveReferences: number;
  exclusions: ExclusionReport;
}

function sameIdentity(a: SnapshotIdentity, b: SnapshotIdentity): boolean {
  return a.workspaceId === b.workspaceId && a.workspaceEpoch === b.workspaceEpoch && a.snapshotId === b.snapshotId && a.transactionRevision === b.transactionRevision;
}

function candidateChanged(actionId: string, what: string): JunctionError {
  return new JunctionError('MutationCandidateChanged', `Action '${actionId}' now produces ${what}; the reference was discarded. List the code actions again.`, {
    next: next('resolveTargetAgain', 'list-code-actions'),
    details: { actionId },
  });
}

export class CodeActionService {
  private readonly store: ReferenceStore<ActionDescriptor>;
  private readonly exclusions: ExclusionLog;
  private readonly diagnostics = new DiagnosticsCache();
  private readonly languageServiceOf: LanguageServiceOf;

  constructor(private readonly deps: CodeActionServiceDeps) {
    this.store = new ReferenceStore<ActionDescriptor>({ ...(deps.now ? { now: deps.now } : {}), ...deps.references });
    this.exclusions = new ExclusionLog(deps.now);
    this.languageServiceOf = deps.languageService ?? ((workspace, snapshot) => workspace.languageService(snapshot));
  }

  status(): CodeActionStatus {
    return {
      component: 'code-actions',
      available: true,
      referenceLifetimeMs: this.store.lifetimeMs,
      referenceCapacity: this.store.capacity,
      liveReferences: this.store.size(),
      exclusions: this.exclusions.report(),
    };
  }

  list(request: ListRequest): { snapshot: SnapshotIdentity; actions: { items: ListedAction[]; hasMore: boolean } } {
    const workspace = this.deps.workspaces.resolve(request.workspace);
    assertSnapshot(workspace, request.expectedSnapshot);
    const snapshot = workspace.snapshot();
    const path = normaliseRelativePath(request.path);
    const text = this.documentText(snapshot, path);
    const starts = lineStarts(text);
    const range = request.range ? this.resolveRange(path, text, starts, request.range) : undefined;
    const identity = workspace.identity();
    const ls = this.languageServiceOf(workspace, snapshot);
    const fileName = join(workspace.realRoot, path);
    const found = discoverActions(
      {
        ls,
        realRoot: workspace.realRoot,
        snapshot,
        path,
        fileName,
        diagnostics: () => this.diagnostics.get(snapshot.snapshotId, path, ls, fileName),
        ...(range ? { range } : {}),
        kinds: request.kinds,
        ...(request.diagnosticCodes ? { diagnosticCodes: request.diagnosticCodes } : {}),
        limit: request.limit,
      },
      this.exclusions,
    );
    const items = found.items.map((action): ListedAction => {
      const item: ListedAction = {
        actionId: this.store.add(identity, action.descriptor),
        title: action.title,
        kind: action.descriptor.kind,
        provider: action.descriptor.kind === 'codeFix' ? action.descriptor.fixName : action.descriptor.refactorName,
        location: { path, start: action.start, length: action.length, ...toLineColumn(starts, action.start) },
      };
      if (action.descriptor.kind === 'refactoring' && action.descriptor.refactorKind) item.refactorKind = action.descriptor.refactorKind;
      if (action.diagnostics) item.diagnostics = action.diagnostics;
      if (action.fixAllScopes) item.fixAllScopes = action.fixAllScopes;
      return item;
    });
    return { snapshot: identity, actions: { items, hasMore: found.hasMore } };
  }

  prepare(request: PrepareRequest): PrepareResult {
    const { workspace, descriptor } = this.resolveReference(request.actionId, request.expectedSnapshot, request.workspace);
    if (descriptor.kind !== 'codeFix' || descriptor.fixId === undefined) {
      throw new JunctionError('InvalidArguments', `Action '${request.actionId}' does not support fix-all; only code fixes that list fixAllScopes do.`, {
        next: next('fixArguments', 'list-code-actions'),
        details: { actionId: request.actionId },
      });
    }
    const snapshot = workspace.snapshot();
    const ls = this.languageServiceOf(workspace, snapshot);
    this.rediscoverFix(request.actionId, workspace, snapshot, ls, descriptor);
    const origin = descriptor as CodeFixDescriptor & { fixId: string };
    const operation = evaluateFixAll({ ls, realRoot: workspace.realRoot, snapshot, path: origin.path, fixId: origin.fixId, scope: request.scope });
    assertWithinMaxChanges(operation, request.maxChanges);
    const prepared: PreparedFixAllDescriptor = { kind: 'fixAll', origin, scope: request.scope, maxChanges: request.maxChanges, checksum: operation.checksum };
    const actionId = this.store.add(workspace.identity(), prepared);
    const documents = operation.files.map(({ path, change, edits }) => ({ path, change, edits }));
    return {
      actionId,
      scope: request.scope,
      changeCount: operation.editCount,
      affectedDocuments: { items: documents.slice(0, request.affectedDocumentsLimit), hasMore: documents.length > request.affectedDocumentsLimit, totalCount: documents.length },
    };
  }

  async stage(request: StageRequest): Promise<StageResult & { title: string }> {
    const { workspace, descriptor } = this.resolveReference(request.actionId, request.expectedSnapshot, request.workspace);
    requireActive(this.deps.transactions.transactionOf(workspace.workspaceId), workspace);
    const snapshot = workspace.snapshot();
    const ls = this.languageServiceOf(workspace, snapshot);
    const { operation, title } = this.recreate(request.actionId, workspace, snapshot, ls, descriptor);
    const result = await this.deps.transactions.stage(workspace.workspaceId, request.expectedSnapshot, operation.changes, title);
    this.store.consume(request.actionId);
    return { ...result, title };
  }

  private documentText(snapshot: Snapshot, path: string): string {
    const doc = snapshot.get(path);
    if (!doc) throw new JunctionError('DocumentNotFound', `No document '${path}' in the current snapshot.`, { next: next('refreshSnapshot', 'workspace-status'), details: { path } });
    return doc.text;
  }

  private resolveRange(path: string, text: string, starts: readonly number[], range: { start: Position; end: Position }): { start: number; end: number } {
    const start = resolvePosition(path, text, range.start, starts);
    const end = resolvePosition(path, text, range.end, starts);
    if (end < start) throw new JunctionError('RangeInvalid', `${path}: the range ends (${end}) before it starts (${start}).`, { next: next('fixArguments'), details: { path, start, end } });
    return { start, end };
  }

  /** The reference's workspace, after proving the reference, the caller and the workspace agree on one snapshot. */
  private resolveReference(actionId: string, expected: SnapshotIdentity, selector: string | undefined): { workspace: Workspace; descriptor: ActionDescriptor } {
    const reference = this.store.get(actionId);
    if (!sameIdentity(reference.snapshot, expected)) {
      throw new JunctionError('SnapshotMismatch', `Action '${actionId}' belongs to another snapshot than expectedSnapshot; list the code actions again for the current snapshot.`, {
        next: next('resolveTargetAgain', 'list-code-actions'),
        details: { actionId, referenceSnapshot: { ...reference.snapshot }, expected: { ...expected } },
      });
    }
    const workspace = this.deps.workspaces.resolve(selector ?? reference.snapshot.workspaceId);
    if (workspace.workspaceId !== reference.snapshot.workspaceId) throw actionExpired(actionId);
    assertSnapshot(workspace, expected);
    return { workspace, descriptor: reference.value };
  }

  private rediscoverFix(actionId: string, workspace: Workspace, snapshot: Snapshot, ls: ts.LanguageService, d: CodeFixDescriptor): NormalisedOperation {
    const fileName = join(workspace.realRoot, d.path);
    const fixes = codeFixes(ls, fileName, d.diagnostic.start, d.diagnostic.start + d.diagnostic.length, d.diagnostic.code);
    const fix = matchExactlyOne(actionId, fixes, (f) => f.fixName === d.fixName && f.description === d.description && (f.fixId === undefined ? undefined : String(f.fixId)) === d.fixId);
    if (fix.commands && fix.commands.length > 0) throw candidateChanged(actionId, 'commands');
    return this.normaliseOrChanged(actionId, workspace, snapshot, fix.changes, d.fingerprint);
  }

  private rediscoverRefactor(actionId: string, workspace: Workspace, snapshot: Snapshot, ls: ts.LanguageService, d: RefactorDescriptor): NormalisedOperation {
    const fileName = join(workspace.realRoot, d.path);
    const at = refactorPosition(d.start, d.end);
    const actions = applicableRefactors(ls, fileName, at).flatMap((info) => info.actions.map((action) => ({ info, action })));
    matchExactlyOne(actionId, actions, ({ info, action }) => info.name === d.refactorName && action.name === d.actionName && !action.notApplicableReason);
    const edits = refactorEdits(ls, fileName, at, d.refactorName, d.actionName);
    if (!edits || (edits.commands && edits.commands.length > 0)) throw candidateChanged(actionId, edits ? 'commands' : 'no edits');
    return this.normaliseOrChanged(actionId, workspace, snapshot, edits.edits, d.fingerprint);
  }

  /** The candidate for changes that must still have the fingerprint they were listed with. */
  private normaliseOrChanged(actionId: string, workspace: Workspace, snapshot: Snapshot, changes: readonly ts.FileTextChanges[], fingerprint: string): NormalisedOperation {
    const now = fingerprintFileChanges(workspace.realRoot, snapshot, changes);
    const normalised = 'ok' in now && now.ok === fingerprint ? normaliseFileChanges(workspace.realRoot, snapshot, changes) : undefined;
    if (!normalised || 'excluded' in normalised) {
      this.store.consume(actionId);
      throw candidateChanged(actionId, 'different changes than when it was listed');
    }
    return normalised.ok;
  }

  private recreate(actionId: string, workspace: Workspace, snapshot: Snapshot, ls: ts.LanguageService, d: ActionDescriptor): { operation: NormalisedOperation; title: string } {
    switch (d.kind) {
      case 'codeFix':
        return { operation: this.rediscoverFix(actionId, workspace, snapshot, ls, d), title: d.description };
      case 'refactoring':
        return { operation: this.rediscoverRefactor(actionId, workspace, snapshot, ls, d), title: d.description };
      case 'fixAll': {
        const operation = evaluateFixAll({ ls, realRoot: workspace.realRoot, snapshot, path: d.origin.path, fixId: d.origin.fixId, scope: d.scope });
        if (operation.checksum !== d.checksum || operation.editCount > d.maxChanges) {
          this.store.consume(actionId);
          throw candidateChanged(actionId, 'a different fix-all operation than the prepared one');
        }
        return { operation, title: `${d.origin.fixAllDescription ?? d.origin.description} (${d.scope} scope)` };
      }
    }
  }
}
