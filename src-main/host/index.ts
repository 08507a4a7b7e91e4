/**
 * The host: workspaces, snapshots, transactions, approvals, modes and the host MCP tools.
 *
 * Public door for the app:
 *   createHost({ mode, toolOutputSchema, journal, trustedRoots?, logger?, watch? }) → Host
 *
 * What in-process extensions (code actions, host plugins) and the app may use, through `host.extensions`:
 *   - extensions.workspaces.resolve(selector?)    → Workspace (WorkspaceSelectorRequired / WorkspaceNotFound); .list()
 *   - workspace.snapshot()                         → immutable Snapshot the agent currently sees
 *   - workspace.identity()                         → SnapshotIdentity to compare with expectedSnapshot
 *   - workspace.languageService(snapshot?)         → ts.LanguageService reading that snapshot (synchronous use only:
 *                                                    the next call may retarget it)
 *   - extensions.transactions.stage(workspaceId, expectedSnapshot, candidateChanges, summary)
 *                                                  → Promise<StageResult>; the same pipeline as stage-edits
 *                                                    (path guards, SnapshotMismatch first, compiler validation)
 *   - extensions.transactions.transactionOf(workspaceId) → the active transaction, if any
 *   - extensions.assertSnapshot(workspace, expected) → SnapshotMismatch before positions are interpreted
 *   - extensions.createToolSource(id, tools, outputSchema) → further tools in the host's style (defineTool from host/tools)
 *   - host.provideStatus(name, provider)          → adds a section to server-status (detail Full)
 */
import { TypedEmitter } from '../shared/index.js';
import { JunctionError, next, type ToolSource } from '../contracts/index.js';
import type { ApprovalView, WorkspaceView } from '../contracts/index.js';
import { ApprovalDesk, ReceiptSigner, type Decision } from './approvals/index.js';
import type { HostEvents } from './events.js';
import type { HostJournal } from './journal.js';
import { modePolicy, type HostMode } from './modes.js';
import { assertSnapshot, DEFAULT_MAX_DIFF_CHARS, TransactionService, workspaceView } from './operations/index.js';
import { createHostToolSource, createToolSource, type HostCore, type OutputSchemaPublication, type StatusProvider } from './tools/index.js';
import { isWithin, resolveWorkspaceRoot, WorkspaceRegistry, type Workspace } from './workspace/index.js';

export type { HostEvents, HostEventType } from './events.js';
export type { HostJournal } from './journal.js';
export { HOST_MODES, modePolicy, type HostMode, type ModePolicy } from './modes.js';
export type { CandidateChange, Position, TextEdit } from './transactions/index.js';
export type { Snapshot, SnapshotIdentity, Workspace } from './workspace/index.js';
export type { StageResult } from './operations/index.js';
export type { HostTool, OutputSchemaPublication, StatusProvider } from './tools/index.js';

export interface HostLogger {
  warn(message: string, details?: Record<string, unknown>): void;
}

export interface HostOptions {
  mode: HostMode;
  toolOutputSchema: OutputSchemaPublication;
  journal: HostJournal;
  /** Workspaces under these directories are trusted without the operator confirming. */
  trustedRoots?: readonly string[];
  logger?: HostLogger;
  /** Watch opened workspaces for changes on disk (default true). */
  watch?: boolean;
  watchDebounceMs?: number;
}

export interface Host {
  readonly toolSource: ToolSource;
  openWorkspace(root: string, options: { trusted: boolean }): Promise<WorkspaceView>;
  workspaces(): WorkspaceView[];
  approvals: {
    pending(): ApprovalView[];
    decisions(): readonly ApprovalView[];
    decide(approvalId: string, decision: Decision, reason?: string): ApprovalView;
  };
  rollback(workspaceId: string, toRevision: number): WorkspaceView;
  readonly events: TypedEmitter<HostEvents>;
  provideStatus(name: string, provider: StatusProvider): void;
  readonly extensions: HostExtensions;
  close(): void;
}

/** The host as its in-process extensions see it: reading workspaces, staging through the one pipeline, publishing tools. */
export interface HostExtensions {
  readonly workspaces: Pick<WorkspaceRegistry, 'list' | 'resolve'>;
  readonly transactions: HostTransactions;
  assertSnapshot: typeof assertSnapshot;
  createToolSource: typeof createToolSource;
}

/** Staging (the stage-edits pipeline) and a workspace's active transaction; committing stays with the host's tools and the operator. */
export type HostTransactions = Pick<TransactionService, 'stage' | 'transactionOf'>;

/** Events carry bounded diffs; the full text is always available through transaction-preview. */
const EVENT_DIFF_CHARS = 20_000;

export function createHost(options: HostOptions): Host {
  const events = new TypedEmitter<HostEvents>();
  const modeRules = modePolicy(options.mode);
  const registry = new WorkspaceRegistry();
  const trustedRoots = [...(options.trustedRoots ?? [])];
  const statusProviders = new Map<string, StatusProvider>();
  const desk = new ApprovalDesk(
    {
      requested: (approval) => events.emit('approval.requested', { type: 'approval.requested', approval }),
      decided: (approval) => events.emit('approval.decided', { type: 'approval.decided', approval }),
    },
    new ReceiptSigner(),
  );
  const view = (w: Workspace, maxDiffChars = DEFAULT_MAX_DIFF_CHARS): WorkspaceView => workspaceView(w, modeRules.mode, transactions.transactionOf(w.workspaceId), maxDiffChars);
  const changed = (w: Workspace): void => events.emit('workspace.updated', { type: 'workspace.updated', workspace: view(w, EVENT_DIFF_CHARS) });
  const transactions = new TransactionService({ registry, policy: modeRules, journal: options.journal, desk, now: Date.now, changed });
  let resolvedTrustedRoots: Promise<string[]> | undefined;
  const realTrustedRoots = (): Promise<string[]> =>
    (resolvedTrustedRoots ??= Promise.all(trustedRoots.map(async (r) => (await resolveWorkspaceRoot(r).catch(() => ({ real: r }))).real)));
  let configuredTrusted: string[] = [];

  const core: HostCore = {
    modeRules,
    outputSchema: options.toolOutputSchema,
    registry,
    transactions,
    desk,
    journal: options.journal,
    statusProviders,
    isConfiguredTrusted: (realRoot) => configuredTrusted.some((r) => isWithin(r, realRoot)),
    async openWorkspace(root, { trusted }) {
      configuredTrusted = await realTrustedRoots();
      const { real } = await resolveWorkspaceRoot(root);
      const result = await registry.open(root, {
        trusted: trusted || core.isConfiguredTrusted(real),
        watch: options.watch ?? true,
        debounceMs: options.watchDebounceMs ?? 150,
        onReloaded: (w) => {
          transactions.rebaseIfEmpty(w);
          changed(w);
        },
        onWatchError: (error) => options.logger?.warn('workspace watcher failed; changes on disk are seen on workspace-reload only', { root, error: String(error) }),
      });
      changed(result.workspace);
      return result;
    },
  };
  const toolSource = createHostToolSource(core);

  return {
    toolSource,
    events,
    async openWorkspace(root, { trusted }) {
      return view((await core.openWorkspace(root, { trusted })).workspace);
    },
    workspaces: () => registry.list().map((w) => view(w)),
    approvals: {
      pending: () => desk.pending(),
      decisions: () => desk.decisions(),
      decide: (approvalId, decision, reason) => desk.decide(approvalId, decision, reason),
    },
    rollback(workspaceId, toRevision) {
      const workspace = registry.get(workspaceId);
      if (!workspace) throw new JunctionError('WorkspaceNotFound', `No open workspace '${workspaceId}'.`, { next: next('inspectStatus', 'workspace-status') });
      transactions.rollback(workspace, toRevision);
      return view(workspace);
    },
    provideStatus: (name, provider) => void statusProviders.set(name, provider),
    extensions: { workspaces: registry, transactions, assertSnapshot, createToolSource },
    close: () => {
      desk.close();
      registry.closeAll();
    },
  };
}
