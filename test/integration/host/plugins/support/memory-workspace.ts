/**
 * Test stand-in for the host's workspace side of the plugin contract: an immutable document map per
 * revision, a context factory that enforces expectedSnapshot, and a stage function that derives the next
 * revision. The real host supplies the same two functions over its transactions.
 */
import { createHash, randomUUID } from 'node:crypto';
import { JunctionError, next } from '../../../../../src-main/contracts/errors.js';
import { createResolver, createSnapshotView, type PluginContextFactory, type PluginStageFunction, type PluginStageRequest } from '../../../../../src-main/host/plugins/index.js';
import type { AnalysisServices, DocumentView, SnapshotIdentity } from '../../../../../plugins/host-api/index.js';

const unavailable = async (): Promise<never> => {
  throw new JunctionError('PluginUnavailable', 'Analysis services are not composed in this test workspace.');
};
const noServices: AnalysisServices = { references: { findReferences: unavailable }, typeHierarchy: { findDerivedTypes: unavailable } };

export class MemoryWorkspace {
  identity: SnapshotIdentity;
  private docs: Map<string, DocumentView>;
  readonly staged: PluginStageRequest[] = [];
  contextsAcquired = 0;
  contextsReleased = 0;

  constructor(files: Record<string, string>) {
    this.identity = { workspaceId: randomUUID(), workspaceEpoch: 1, snapshotId: randomUUID(), transactionRevision: 0 };
    this.docs = new Map(Object.entries(files).map(([path, text]) => [path, MemoryWorkspace.doc(path, text)]));
  }

  private static doc(path: string, text: string): DocumentView {
    return Object.freeze({ path, text, sha256: createHash('sha256').update(text).digest('hex') });
  }

  text(path: string): string | undefined {
    return this.docs.get(path)?.text;
  }

  private checkSnapshot(expected: SnapshotIdentity | undefined): void {
    if (expected && JSON.stringify(expected) !== JSON.stringify(this.identity)) {
      throw new JunctionError('SnapshotMismatch', 'The expected snapshot is not the current one.', { next: next('refreshSnapshot', 'workspace-status'), details: { current: { ...this.identity } } });
    }
  }

  readonly createContext: PluginContextFactory = async (request) => {
    this.checkSnapshot(request.expectedSnapshot);
    this.contextsAcquired++;
    const docs = this.docs;
    const snapshot = createSnapshotView(this.identity, { paths: () => [...docs.keys()], get: (p) => docs.get(p) });
    return { snapshot, resolver: createResolver(snapshot), services: noServices, release: () => void this.contextsReleased++ };
  };

  readonly stage: PluginStageFunction = async (request) => {
    this.checkSnapshot(request.expectedSnapshot);
    this.staged.push(request);
    const docs = new Map(this.docs);
    for (const change of request.changes) {
      if (change.kind === 'delete') docs.delete(change.path);
      else docs.set(change.path, MemoryWorkspace.doc(change.path, change.text));
    }
    this.docs = docs;
    this.identity = { ...this.identity, snapshotId: randomUUID(), transactionRevision: this.identity.transactionRevision + 1 };
    return { summary: request.summary, snapshot: { ...this.identity }, changedPaths: request.changes.map((c) => c.path) };
  };
}
