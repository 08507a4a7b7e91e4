/**
 * Binds the plugin tool source to a real host: contexts read the workspace's effective snapshot through
 * its language service; candidates are staged through the host's transaction pipeline, the same one
 * stage-edits uses (path guards, SnapshotMismatch first, compiler validation in that mode).
 */
import type { Host } from '../index.js';
import { normaliseRelativePath } from '../workspace/index.js';
import type { CandidateChange as HostCandidateChange } from '../transactions/index.js';
import { createAnalysisServices } from './context/analysis-services.js';
import { createResolver, createSnapshotView } from './context/snapshot-view.js';
import type { PluginContextFactory, PluginStageFunction } from './plugin-tool-source.js';

export interface HostPluginBindings {
  createContext: PluginContextFactory;
  stage: PluginStageFunction;
}

export function hostPluginBindings(host: Host): HostPluginBindings {
  const { workspaces, transactions, assertSnapshot } = host.extensions;
  return {
    async createContext(request) {
      const workspace = workspaces.resolve(request.workspace ?? request.expectedSnapshot?.workspaceId);
      if (request.expectedSnapshot) assertSnapshot(workspace, request.expectedSnapshot);
      const snapshot = workspace.snapshot();
      const view = createSnapshotView(workspace.identity(), snapshot);
      return {
        snapshot: view,
        resolver: createResolver(view),
        services: createAnalysisServices({ realRoot: workspace.realRoot, snapshot, languageService: () => workspace.languageService(snapshot) }),
      };
    },
    async stage(request) {
      const workspace = workspaces.resolve(request.workspace ?? request.expectedSnapshot.workspaceId);
      const snapshot = workspace.snapshot();
      const changes = request.changes.map((change): HostCandidateChange => {
        if (change.kind === 'delete') return { kind: 'delete', path: change.path };
        const exists = snapshot.has(normaliseRelativePath(change.path));
        return { kind: exists ? 'replace' : 'create', path: change.path, content: change.text };
      });
      const summary = `${request.summary} (plugin ${request.pluginId}, ${request.tool})`;
      return { ...(await transactions.stage(workspace.workspaceId, request.expectedSnapshot, changes, summary)) };
    },
  };
}
