/**
 * Prompts and resources reach agents only from bridged plugins; this is what the MCP room needs from
 * whoever provides them. Results use the MCP SDK's shapes so nothing is translated twice. Failures are
 * thrown as JunctionErrors (e.g. PromptNotFound) and become JSON-RPC errors carrying the code.
 */
import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  LoggingLevel,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { AgentRequestContext, AgentScope, ResourceSubscription, ResourceUpdate } from '../contracts/index.js';

type MaybePromise<T> = T | Promise<T>;

/**
 * `scope` is the asking agent's session: with several projects, it sees its own project's prompts and
 * resources. `asking` lets whoever serves a prompt get or resource read ask that agent meanwhile.
 */
export interface ContentSource {
  listPrompts(scope?: AgentScope): MaybePromise<ListPromptsResult>;
  getPrompt(name: string, args: Record<string, string>, scope?: AgentScope, asking?: AgentRequestContext): Promise<GetPromptResult>;
  listResources(scope?: AgentScope): MaybePromise<ListResourcesResult>;
  listResourceTemplates(scope?: AgentScope): MaybePromise<ListResourceTemplatesResult>;
  readResource(uri: string, scope?: AgentScope, asking?: AgentRequestContext): Promise<ReadResourceResult>;
  onPromptsChanged(listener: () => void): () => void;
  onResourcesChanged(listener: () => void): () => void;
  /** Throws `CompletionRefNotFound` for a prompt or template nobody publishes to the agent's project. */
  complete(params: CompleteRequest['params'], scope?: AgentScope): Promise<CompleteResult['completion']>;
  /** Counted across sessions per topic: the owner hears of the first subscription and the last release. */
  subscribe(uri: string, scope?: AgentScope): Promise<ResourceSubscription>;
  onResourceUpdated(listener: (update: ResourceUpdate) => void): () => void;
  /** Plugin log lines not tied to a running call, for every agent session at or above its level. */
  onLog(listener: (entry: { level: LoggingLevel; logger?: string; data: unknown }) => void): () => void;
}
