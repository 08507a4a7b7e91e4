/** Workspaces: directories loaded into immutable snapshots with a language service and change detection. */
export { collectDiagnostics, type DiagnosticsQuery } from './diagnostics.js';
export { isSourcePath, readInside } from './loader.js';
export { assertTransactionPath, guardWorkspacePath } from './path-guard.js';
export { isWithin, normaliseRelativePath } from './paths.js';
export { WorkspaceRegistry } from './registry.js';
export { Snapshot, makeDocument, sha256, type SnapshotDocument, type SnapshotIdentity } from './snapshot.js';
export { resolveWorkspaceRoot, Workspace, type WorkspaceOpenOptions } from './workspace.js';
export { typescript } from './typescript.js';
