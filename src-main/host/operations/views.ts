/** Console views of host state. */
import type { WorkspaceView } from '../../contracts/index.js';
import type { Transaction } from '../transactions/index.js';
import type { Workspace } from '../workspace/index.js';

export function workspaceView(workspace: Workspace, mode: string, transaction: Transaction | undefined, maxDiffChars: number): WorkspaceView {
  const view: WorkspaceView = {
    workspaceId: workspace.workspaceId,
    root: workspace.root,
    name: workspace.name,
    epoch: workspace.epoch,
    trusted: workspace.trusted,
    mode,
    documentCount: workspace.snapshot().size,
  };
  if (transaction?.state === 'active') view.transaction = transaction.view(maxDiffChars);
  return view;
}
