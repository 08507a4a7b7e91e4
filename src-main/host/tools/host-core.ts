/** The host's parts as its tools see them; built once by createHost (host/index.ts), which hands them to hostTools. */
import type { AgentScope } from '../../contracts/index.js';
import type { ApprovalDesk } from '../approvals/index.js';
import type { HostJournal } from '../journal.js';
import type { ModePolicy } from '../modes.js';
import type { TransactionService } from '../operations/index.js';
import type { OutputSchemaPublication } from './define-tool.js';
import type { Workspace, WorkspaceRegistry } from '../workspace/index.js';

/**
 * Contributes a section to server-status (e.g. the plugin catalogue's diagnostics); must return JSON-safe
 * data. `scope` is the asking agent's: a section that names tools names only those that agent sees.
 */
export type StatusProvider = (scope?: AgentScope) => unknown;

export interface HostCore {
  /** What the mode allows (mutations, what a commit requires, compiler validation): not the approval policy. */
  modeRules: ModePolicy;
  outputSchema: OutputSchemaPublication;
  registry: WorkspaceRegistry;
  transactions: TransactionService;
  desk: ApprovalDesk;
  journal: HostJournal;
  statusProviders: Map<string, StatusProvider>;
  /** Opens (or returns) a workspace; trusted when asked by the operator or under a configured trusted root. */
  openWorkspace(root: string, options: { trusted: boolean }): Promise<{ workspace: Workspace; opened: boolean }>;
  /** True when a root lies under a configured trusted root. */
  isConfiguredTrusted(realRoot: string): boolean;
}
