/**
 * The TypeScript McpPlugin SDK: connect a live app to a Junction bridge (or McpPlugin.Server) and
 * expose tools, prompts and resources to agents. It speaks the 8.16 contract (see wire/index.ts).
 *
 *   const plugin = createPlugin({ name: 'scene', version: '1.0.0', role: 'editor' });
 *   plugin.tool({ name: 'add-object', description: '…', input: z.object({ name: z.string() }), handler: async (args, ctx) => … });
 *   await plugin.connect();
 */
export { createPlugin, McpPlugin, type PluginEvents, type PluginOptions, type PluginState } from './src/plugin.js';
export { projectPathHash, projectPathHashLegacy, type ProjectIdentity } from './src/project-identity.js';
export { AgentRequestError, OperatorNoticeError, ToolUnavailableError } from './src/errors.js';
export type {
  AgentRequestOptions,
  AgentRequests,
  ArgsOf,
  CompletionHandler,
  CompletionRequest,
  CompletionReturn,
  JsonObjectSchema,
  PluginRole,
  PromptDefinition,
  PromptMessageInput,
  RequestContext,
  ResourceDefinition,
  ResourceReadResult,
  SamplingParams,
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolReturn,
  ToolSchema,
  ToolTarget,
} from './src/definitions.js';
export { DEFAULT_ENDPOINT, HUB_PATH, MCP_PLUGIN_VERSION, type LogLevel, type ResponseElicitation as ElicitationResult, type ResponseRoots as RootsResult, type ResponseSampling as SamplingResult } from './wire/index.js';
