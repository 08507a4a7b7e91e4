/** What a plugin author declares: tools, prompts and resources, and their wire descriptors. */
import { z } from 'zod';
import type {
  CompletionRef,
  ContentBlock,
  LogLevel,
  ResponseElicitation,
  ResponseSampling,
  ResponseListResource,
  ResponseListTool,
  ResponsePrompt,
  ResponseResourceContent,
  ResponseResourceTemplate,
} from '../wire/index.js';

export type PluginRole = 'editor' | 'runtime';
export type ToolTarget = 'editor' | 'runtime' | 'both';

/** A JSON Schema whose root is an object schema. */
export type JsonObjectSchema = { type: 'object'; [key: string]: unknown };
export type ToolSchema = z.ZodObject | JsonObjectSchema;
export type ArgsOf<S extends ToolSchema> = S extends z.ZodObject ? z.output<S> : Record<string, unknown>;

export interface ToolContext {
  /** Reports progress to the bridge (and on to the agent when it asked for progress). */
  progress(progress: number, total?: number, message?: string): void;
  /** A log line; during a call from an MCP agent it reaches that agent as notifications/message. */
  log(level: LogLevel, message: string, options?: { logger?: string; data?: unknown }): void;
  /**
   * Asks the user of the agent that made this call (MCP elicitation). `requestedSchema` is a flat
   * object schema of primitive properties, as MCP requires. Rejects with AgentRequestError.
   */
  elicit(message: string, requestedSchema: JsonObjectSchema, options?: AgentRequestOptions): Promise<ResponseElicitation>;
  /** Asks the model of the agent that made this call (MCP sampling/createMessage params). Rejects with AgentRequestError. */
  sample(params: SamplingParams, options?: AgentRequestOptions): Promise<ResponseSampling>;
  /** Aborted when the bridge cancels the call (deadline, agent gone) or the connection drops. */
  signal: AbortSignal;
  requestId: string;
  /**
   * The calling agent's W3C trace context (`00-<trace id>-<parent id>-<flags>`), when it sent a valid one:
   * start this tool's span under it to join the agent's trace.
   */
  traceparent?: string;
}

export interface AgentRequestOptions {
  /** Withdraws the request (the agent receives notifications/cancelled); the call's own cancellation always does. */
  signal?: AbortSignal;
}

export interface SamplingParams {
  messages: Array<{ role: 'user' | 'assistant'; content: ContentBlock }>;
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  [key: string]: unknown;
}

export interface CompletionRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}
export type CompletionReturn = string[] | { values: string[]; total?: number; hasMore?: boolean };
export type CompletionHandler = (request: CompletionRequest) => CompletionReturn | Promise<CompletionReturn>;

/** What a handler may return: text, a structured value, or an MCP-style result with explicit content. */
export type ToolReturn =
  | void
  | string
  | number
  | boolean
  | null
  | undefined
  | Record<string, unknown>
  | unknown[]
  | { content: ContentBlock[]; structuredContent?: Record<string, unknown>; isError?: boolean };

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<S extends ToolSchema = ToolSchema> {
  name: string;
  title?: string;
  description: string;
  input: S;
  output?: ToolSchema;
  /** Which builds publish the tool: an editor publishes `editor` and `both`, a runtime `runtime` and `both`. Default `both`. */
  target?: ToolTarget;
  annotations?: ToolAnnotations;
  handler: (args: ArgsOf<S>, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;
}

/** A prompt message: text, or any MCP content block (image, audio, embedded resource). */
export type PromptMessageInput = { role: 'user' | 'assistant'; text: string } | { role: 'user' | 'assistant'; content: ContentBlock };

export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
  handler: (args: Record<string, string>) => string | PromptMessageInput[] | Promise<string | PromptMessageInput[]>;
}

export type ResourceReadResult = string | { text: string; mimeType?: string } | { blob: string; mimeType?: string };

export interface ResourceDefinition {
  /** A fixed URI, or an RFC 6570 level-1 template such as `scene://objects/{id}`. */
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  read: (uri: string) => ResourceReadResult | Promise<ResourceReadResult>;
}

export function isZodSchema(schema: ToolSchema): schema is z.ZodObject {
  return '_zod' in schema;
}

/** The published JSON Schema of a tool input or output; the dialect marker is dropped, the keywords stay. */
export function jsonSchemaOf(schema: ToolSchema): Record<string, unknown> {
  if (!isZodSchema(schema)) return schema;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

export function publishedBy(target: ToolTarget | undefined, role: PluginRole): boolean {
  const t = target ?? 'both';
  return t === 'both' || t === role;
}

export function toolDescriptor(tool: ToolDefinition): ResponseListTool {
  return {
    name: tool.name,
    enabled: true,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input),
    outputSchema: tool.output ? jsonSchemaOf(tool.output) : undefined,
    readOnlyHint: tool.annotations?.readOnlyHint,
    destructiveHint: tool.annotations?.destructiveHint,
    idempotentHint: tool.annotations?.idempotentHint,
    openWorldHint: tool.annotations?.openWorldHint,
  };
}

export function promptDescriptor(prompt: PromptDefinition): ResponsePrompt {
  return {
    name: prompt.name,
    enabled: true,
    title: prompt.title,
    description: prompt.description,
    arguments: prompt.arguments?.map((a) => ({ name: a.name, title: undefined, description: a.description, required: a.required })),
  };
}

export function isTemplate(resource: ResourceDefinition): boolean {
  return /\{[^}]+\}/.test(resource.uri);
}

export function resourceDescriptor(resource: ResourceDefinition): ResponseListResource {
  return { uri: resource.uri, name: resource.name, enabled: true, description: resource.description, mimeType: resource.mimeType, size: undefined };
}

export function templateDescriptor(resource: ResourceDefinition): ResponseResourceTemplate {
  return { uriTemplate: resource.uri, name: resource.name, enabled: true, description: resource.description, mimeType: resource.mimeType };
}

export function resourceContent(uri: string, fallbackMime: string | undefined, result: ResourceReadResult): ResponseResourceContent {
  if (typeof result === 'string') return { uri, mimeType: fallbackMime ?? 'text/plain', text: result, blob: undefined };
  if ('blob' in result) return { uri, mimeType: result.mimeType ?? fallbackMime, text: undefined, blob: result.blob };
  return { uri, mimeType: result.mimeType ?? fallbackMime ?? 'text/plain', text: result.text, blob: undefined };
}
