/**
 * Prompts and resources reach agents only from bridged plugins; this is what the MCP room needs from
 * whoever provides them. Results use the MCP SDK's shapes so nothing is translated twice. Failures are
 * thrown as JunctionErrors (e.g. PromptNotFound) and become JSON-RPC errors carrying the code.
 */
import type { GetPromptResult, ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';

type MaybePromise<T> = T | Promise<T>;

export interface ContentSource {
  listPrompts(): MaybePromise<ListPromptsResult>;
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult>;
  listResources(): MaybePromise<ListResourcesResult>;
  listResourceTemplates(): MaybePromise<ListResourceTemplatesResult>;
  readResource(uri: string): Promise<ReadResourceResult>;
  onPromptsChanged(listener: () => void): () => void;
  onResourcesChanged(listener: () => void): () => void;
}
