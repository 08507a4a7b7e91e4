/**
 * Code actions from the TypeScript language service, as host tools: list-code-actions, prepare-fix-all
 * and stage-code-action. Composed once per host; reported in server-status as a host component.
 *
 *   const codeActions = createCodeActions(host, { mode, toolOutputSchema, referenceLifetimeMs });
 *   catalogue sources: host.toolSource, codeActions.toolSource, ...
 *   host.provideStatus('codeActions', codeActions.status);
 */
import type { ToolSource } from '../../contracts/index.js';
import { modePolicy, type Host, type HostMode, type HostTool, type OutputSchemaPublication } from '../index.js';
import { CodeActionService, type CodeActionStatus, type LanguageServiceOf } from './service.js';
import { codeActionTools } from './tools.js';

export { CodeActionService, type CodeActionServiceDeps, type CodeActionStatus, type LanguageServiceOf } from './service.js';
export { DEFAULT_REFERENCE_CAPACITY, DEFAULT_REFERENCE_LIFETIME_MS } from './reference-store.js';

export interface CodeActionOptions {
  mode: HostMode;
  toolOutputSchema: OutputSchemaPublication;
  /** `code-action-reference-lifetime`, default five minutes. */
  referenceLifetimeMs?: number;
  referenceCapacity?: number;
  now?: () => number;
  languageService?: LanguageServiceOf;
}

export interface CodeActions {
  readonly tools: readonly HostTool[];
  readonly toolSource: ToolSource;
  status(): CodeActionStatus;
}

export function createCodeActions(host: Host, options: CodeActionOptions): CodeActions {
  const service = new CodeActionService({
    workspaces: host.extensions.workspaces,
    transactions: host.extensions.transactions,
    references: {
      ...(options.referenceLifetimeMs !== undefined ? { lifetimeMs: options.referenceLifetimeMs } : {}),
      ...(options.referenceCapacity !== undefined ? { capacity: options.referenceCapacity } : {}),
    },
    ...(options.now ? { now: options.now } : {}),
    ...(options.languageService ? { languageService: options.languageService } : {}),
  });
  const tools = codeActionTools(service, modePolicy(options.mode).mutations);
  return {
    tools,
    toolSource: host.extensions.createToolSource('code-actions', tools, options.toolOutputSchema),
    status: () => service.status(),
  };
}
