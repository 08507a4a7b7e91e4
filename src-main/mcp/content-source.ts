/**
 * Prompts and resources reach agents only from bridged plugins; this is what the MCP room needs from
 * whoever provides them. Results use the MCP SDK's shapes so nothing is translated twice. Failures are
 * thrown as JunctionErrors (e.g. PromptNotFound) and become JSON-RPC errors carrying the code.
 */
import type { GetPromptResult, ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentScope } from '../shared/project-pin.js';

type MaybePromise<T> = T | Promise<T>;

/** `scope` is the asking agent's session: with several projects, it sees its own project's prompts and resources. */
export interface ContentSource {
  listPrompts(scope?: AgentScope): MaybePromise<ListPromptsResult>;
  getPrompt(name: string, args: Record<string, string>, scope?: AgentScope): Promise<GetPromptResult>;
  listResources(scope?: AgentScope): MaybePromise<ListResourcesResult>;
  listResourceTemplates(scope?: AgentScope): MaybePromise<ListResourceTemplatesResult>;
  readResource(uri: string, scope?: AgentScope): Promise<ReadResourceResult>;
  onPromptsChanged(listener: () => void): () => void;
  onResourcesChanged(listener: () => void): () => void;
}
