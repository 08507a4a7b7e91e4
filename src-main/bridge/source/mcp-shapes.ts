/** McpPlugin DTOs as the MCP SDK's shapes (pure): what agents and the console see of a plugin's catalogue. */
import type {
  GetPromptResult,
  Prompt,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  Role,
  type ResponseGetPrompt,
  type ResponseListResource,
  type ResponseListTool,
  type ResponsePrompt,
  type ResponseResourceContent,
  type ResponseResourceTemplate,
} from '../../../plugins/sdk/wire/index.js';
import { toMcpContent } from '../calls/index.js';

function defined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function objectSchema(schema: Record<string, unknown>): Tool['inputSchema'] {
  return { ...schema, type: 'object' };
}

export function toolDescriptor(tool: ResponseListTool): Tool {
  const annotations = defined({
    readOnlyHint: tool.readOnlyHint,
    destructiveHint: tool.destructiveHint,
    idempotentHint: tool.idempotentHint,
    openWorldHint: tool.openWorldHint,
  });
  return defined({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: objectSchema(tool.inputSchema),
    outputSchema: tool.outputSchema ? objectSchema(tool.outputSchema) : undefined,
    annotations: Object.keys(annotations).length ? annotations : undefined,
    execution: tool.taskSupport ? { taskSupport: tool.taskSupport } : undefined,
  });
}

export function promptDescriptor(prompt: ResponsePrompt): Prompt {
  return defined({
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: prompt.arguments?.map((a) => defined({ name: a.name, title: a.title, description: a.description, required: a.required })),
  });
}

export function resourceDescriptor(resource: ResponseListResource): Resource {
  return defined({ uri: resource.uri, name: resource.name, mimeType: resource.mimeType, description: resource.description, size: resource.size });
}

export function resourceTemplateDescriptor(template: ResponseResourceTemplate): ResourceTemplate {
  return defined({ uriTemplate: template.uriTemplate, name: template.name, mimeType: template.mimeType, description: template.description });
}

export function promptResult(response: ResponseGetPrompt): GetPromptResult {
  const messages: PromptMessage[] = response.messages.flatMap((m) => {
    const [content] = toMcpContent([m.content]);
    return content ? [{ role: m.role === Role.Assistant ? 'assistant' : 'user', content }] : [];
  });
  return defined({ description: response.description, messages });
}

export function resourceResult(contents: readonly ResponseResourceContent[]): ReadResourceResult {
  return {
    contents: contents.map((c) =>
      c.blob !== undefined ? defined({ uri: c.uri, mimeType: c.mimeType, blob: c.blob }) : defined({ uri: c.uri, mimeType: c.mimeType, text: c.text ?? '' }),
    ),
  };
}
