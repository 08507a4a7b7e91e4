/**
 * Running one declared tool, prompt or resource for the bridge and answering in the wire shapes.
 * No network here: the connection layer passes the request in and sends the result back.
 */
import { isZodSchema, resourceContent, type PromptDefinition, type RequestContext, type ResourceDefinition, type ToolContext, type ToolDefinition, type ToolReturn } from './definitions.js';
import { ToolUnavailableError, errorMessage } from './errors.js';
import {
  ResponseErrorKind,
  ResponseStatus,
  Role,
  errorData,
  successData,
  type ContentBlock,
  type RequestCallTool,
  type ResponseCallTool,
  type ResponseData,
  type ResponseGetPrompt,
  type ResponseResourceContent,
} from '../wire/index.js';

export type CallReply = ResponseData<ResponseCallTool>;

/** McpPlugin's first answer of a long-running call: the result follows in NotifyToolRequestCompleted. */
export function processingData(requestId: string, message?: string): CallReply {
  const content: ContentBlock[] = message ? [{ type: 'text', text: message }] : [];
  const value: ResponseCallTool = { requestId, status: ResponseStatus.Processing, content, structuredContent: undefined, errorKind: ResponseErrorKind.None, httpStatusCode: undefined, notExecuted: undefined };
  return { requestId, status: ResponseStatus.Processing, errorKind: ResponseErrorKind.None, message, httpStatusCode: undefined, value };
}

function callError(requestId: string, message: string, errorKind: ResponseErrorKind, httpStatusCode: number, notExecuted = false): CallReply {
  const value: ResponseCallTool = {
    requestId,
    status: ResponseStatus.Error,
    content: [{ type: 'text', text: message }],
    structuredContent: undefined,
    errorKind,
    httpStatusCode,
    notExecuted: notExecuted || undefined,
  };
  return { ...errorData(requestId, message, errorKind, httpStatusCode), value };
}

function hasContent(value: ToolReturn): value is { content: ContentBlock[]; structuredContent?: Record<string, unknown>; isError?: boolean } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Array.isArray((value as { content?: unknown }).content);
}

function successReply(requestId: string, content: ContentBlock[], structuredContent?: Record<string, unknown>): CallReply {
  return successData(requestId, {
    requestId,
    status: ResponseStatus.Success,
    content,
    structuredContent,
    errorKind: ResponseErrorKind.None,
    httpStatusCode: undefined,
    notExecuted: undefined,
  });
}

/**
 * A handler's return value as a tool result. A structured value goes once, as structured content: the
 * bridge adds the JSON text block MCP agents expect, so a large result does not cross the hub twice.
 */
export function resultOf(requestId: string, value: ToolReturn): CallReply {
  if (value === undefined || value === null) return successReply(requestId, []);
  if (typeof value === 'string') return successReply(requestId, [{ type: 'text', text: value }]);
  if (hasContent(value)) {
    if (value.isError) {
      const text = value.content.map((c) => (typeof c['text'] === 'string' ? c['text'] : '')).join('\n');
      return callError(requestId, text || 'The tool reported an error.', ResponseErrorKind.BadRequest, 422);
    }
    return successReply(requestId, value.content, value.structuredContent);
  }
  const structured = typeof value === 'object' && !Array.isArray(value) ? value : { result: value };
  return successReply(requestId, [], structured);
}

function issuesText(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`).join('; ');
}

/**
 * Thrown Error: BadRequest + 422 with its message (the caller asked for something the tool could not do);
 * argument parse failure: BadRequest + 400; ToolUnavailableError: Unavailable + 503, carrying notExecuted.
 */
export async function runTool(tool: ToolDefinition, request: RequestCallTool, ctx: ToolContext): Promise<CallReply> {
  let args: Record<string, unknown> = request.arguments;
  if (isZodSchema(tool.input)) {
    const parsed = tool.input.safeParse(request.arguments);
    if (!parsed.success) {
      return callError(request.requestId, `Invalid arguments for '${tool.name}': ${issuesText(parsed.error.issues)}`, ResponseErrorKind.BadRequest, 400);
    }
    args = parsed.data as Record<string, unknown>;
  }
  let value: ToolReturn;
  try {
    value = await tool.handler(args as never, ctx);
  } catch (error) {
    if (error instanceof ToolUnavailableError) return callError(request.requestId, error.message, ResponseErrorKind.Unavailable, 503, error.notExecuted);
    const message = errorMessage(error);
    return callError(request.requestId, message, ResponseErrorKind.BadRequest, 422);
  }
  if (tool.output && isZodSchema(tool.output) && !hasContent(value)) {
    const checked = tool.output.safeParse(value);
    if (!checked.success) {
      return callError(request.requestId, `'${tool.name}' returned a value that does not match its output schema: ${issuesText(checked.error.issues)}`, ResponseErrorKind.Internal, 500);
    }
  }
  return resultOf(request.requestId, value);
}

export function unknownTool(requestId: string, name: string): CallReply {
  return callError(requestId, `This plugin has no tool named '${name}'.`, ResponseErrorKind.NotFound, 404);
}

export async function runPrompt(prompt: PromptDefinition, requestId: string, args: Record<string, unknown>, ctx: RequestContext): Promise<ResponseData<ResponseGetPrompt>> {
  const stringArgs = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  const missing = (prompt.arguments ?? []).filter((a) => a.required && stringArgs[a.name] === undefined).map((a) => a.name);
  if (missing.length) return errorData(requestId, `Prompt '${prompt.name}' needs the argument(s): ${missing.join(', ')}.`, ResponseErrorKind.BadRequest, 400);
  try {
    const produced = await prompt.handler(stringArgs, ctx);
    const messages = typeof produced === 'string' ? [{ role: 'user' as const, text: produced }] : produced;
    return successData(requestId, {
      requestId,
      status: ResponseStatus.Success,
      description: prompt.description,
      messages: messages.map((m) => ({ role: m.role === 'assistant' ? Role.Assistant : Role.User, content: 'content' in m ? m.content : { type: 'text', text: m.text } })),
    });
  } catch (error) {
    return errorData(requestId, errorMessage(error), ResponseErrorKind.Internal, 500);
  }
}

export async function readResource(resource: ResourceDefinition, requestId: string, uri: string, ctx: RequestContext): Promise<ResponseData<ResponseResourceContent[]>> {
  try {
    return successData(requestId, [resourceContent(uri, resource.mimeType, await resource.read(uri, ctx))]);
  } catch (error) {
    return errorData(requestId, errorMessage(error), ResponseErrorKind.Internal, 500);
  }
}
