/**
 * Prompts and resources reach agents only from bridged plugins; this is what the MCP room needs from
 * whoever provides them. Results use the MCP SDK's shapes so nothing is translated twice.
 */
import type { GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

export interface ContentSource {
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult>;
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  onPromptsChanged(listener: () => void): () => void;
  onResourcesChanged(listener: () => void): () => void;
}
