/** The host's tool catalogue as one ToolSource, shaped by the mode. */
import type { ToolSource } from '../../contracts/index.js';
import type { HostCore } from './host-core.js';
import { createToolSource, type HostTool } from './define-tool.js';
import { queryTools } from './query-tools.js';
import { statusTools } from './status-tools.js';
import { transactionTools } from './transaction-tools.js';
import { workspaceTools } from './workspace-tools.js';

export { createToolSource, defineTool, describeTool, type HostTool, type OutputSchemaPublication } from './define-tool.js';
export type { HostCore, StatusProvider } from './host-core.js';
export * as schemas from './schemas.js';

export function hostTools(core: HostCore): HostTool[] {
  const tools = [...statusTools(core), ...workspaceTools(core), ...queryTools(core), ...(core.modeRules.mutations ? transactionTools(core) : [])];
  return tools.sort((a, b) => (a.name < b.name ? -1 : 1));
}

export function createHostToolSource(core: HostCore): ToolSource {
  return createToolSource('host', hostTools(core), core.outputSchema);
}
