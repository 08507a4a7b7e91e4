/** The set of open workspaces and the rule for picking one from an optional selector. */
import { JunctionError, next } from '../../contracts/index.js';
import { resolve } from 'node:path';
import { resolveWorkspaceRoot, Workspace, type WorkspaceOpenOptions } from './workspace.js';

export class WorkspaceRegistry {
  private readonly byId = new Map<string, Workspace>();

  async open(root: string, options: WorkspaceOpenOptions): Promise<{ workspace: Workspace; opened: boolean }> {
    const { real } = await resolveWorkspaceRoot(root);
    const existing = [...this.byId.values()].find((w) => w.realRoot === real);
    if (existing) {
      if (options.trusted) existing.markTrusted();
      return { workspace: existing, opened: false };
    }
    const workspace = await Workspace.open(root, options);
    this.byId.set(workspace.workspaceId, workspace);
    return { workspace, opened: true };
  }

  list(): Workspace[] {
    return [...this.byId.values()];
  }

  get(workspaceId: string): Workspace | undefined {
    return this.byId.get(workspaceId);
  }

  /** A selector is a workspace id, its root path or its folder name; it may be omitted when exactly one workspace is open. */
  resolve(selector: string | undefined | null): Workspace {
    const all = this.list();
    if (selector === undefined || selector === null) {
      if (all.length === 1) return all[0]!;
      if (all.length === 0) {
        throw new JunctionError('WorkspaceNotFound', 'No workspace is open.', { next: next('fixArguments', 'workspace-open') });
      }
      throw new JunctionError('WorkspaceSelectorRequired', `${all.length} workspaces are open; pass 'workspace' (an id, root or name).`, {
        next: next('inspectStatus', 'workspace-status'),
        details: { workspaces: all.map((w) => ({ workspaceId: w.workspaceId, root: w.root, name: w.name })) },
      });
    }
    const byId = this.byId.get(selector);
    if (byId) return byId;
    const matches = all.filter((w) => w.root === resolve(selector) || w.realRoot === resolve(selector) || w.name === selector);
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new JunctionError('WorkspaceSelectorRequired', `'${selector}' names ${matches.length} workspaces; pass a workspace id.`, {
        next: next('inspectStatus', 'workspace-status'),
        details: { workspaces: matches.map((w) => ({ workspaceId: w.workspaceId, root: w.root })) },
      });
    }
    throw new JunctionError('WorkspaceNotFound', `No open workspace matches '${selector}'.`, { next: next('inspectStatus', 'workspace-status'), details: { selector } });
  }

  closeAll(): void {
    for (const w of this.byId.values()) w.close();
    this.byId.clear();
  }
}
