/**
 * Turning a plugin's answer into an MCP tool outcome (pure): the stable error code from ErrorKind and
 * httpStatusCode (its kind, and so its status, follows from the code), and the message form agents see.
 */
import {
  ResponseErrorKind,
  ResponseStatus,
  type ContentBlock,
  type ResponseCallTool,
  type ResponseData,
} from '../../../plugins/sdk/wire/index.js';
import { next, KIND_BY_CODE, type ErrorCode, type NextAction, errorOutcome, type ToolOutcome } from '../../contracts/index.js';
import { toMcpContent } from './content.js';

/** The tool result and its envelope folded into one: errors may sit on either level. */
export interface PluginReply {
  status: ResponseStatus;
  content: ContentBlock[];
  structuredContent?: unknown;
  errorKind: ResponseErrorKind;
  httpStatusCode?: number;
  notExecuted?: boolean;
  message: string;
}

/** The phrase a plugin's reload gate uses when it refuses a call before running it. */
const RELOAD_GATE_PHRASE = 'this call was not run';

function textOf(content: readonly ContentBlock[]): string {
  return content
    .map((block) => (block.type === 'text' && typeof block['text'] === 'string' ? block['text'] : ''))
    .filter((t) => t !== '')
    .join('\n');
}

export function replyFromEnvelope(envelope: ResponseData<ResponseCallTool>): PluginReply {
  const value = envelope.value ?? undefined;
  if (!value) {
    return { status: envelope.status, content: [], errorKind: envelope.errorKind, httpStatusCode: envelope.httpStatusCode, message: envelope.message ?? '' };
  }
  const failed = envelope.status === ResponseStatus.Error || value.status === ResponseStatus.Error;
  const status = failed ? ResponseStatus.Error : value.status;
  return {
    status,
    content: value.content,
    ...(value.structuredContent === undefined || value.structuredContent === null ? {} : { structuredContent: value.structuredContent }),
    errorKind: value.errorKind !== ResponseErrorKind.None ? value.errorKind : envelope.errorKind,
    httpStatusCode: value.httpStatusCode ?? envelope.httpStatusCode,
    ...(value.notExecuted ? { notExecuted: true } : {}),
    message: envelope.message || textOf(value.content),
  };
}

/** A failure the plugin guarantees changed nothing and that a plugin reload ends: safe to send again. */
export function isNotExecuted(reply: PluginReply): boolean {
  if (reply.status !== ResponseStatus.Error) return false;
  return reply.notExecuted === true || (reply.errorKind === ResponseErrorKind.Unavailable && reply.message.toLowerCase().includes(RELOAD_GATE_PHRASE));
}

const CODE_BY_STATUS: ReadonlyArray<[number, ErrorCode]> = [
  [400, 'InvalidArguments'],
  [404, 'ToolNotFound'],
  [408, 'ToolTimeout'],
  [409, 'Conflict'],
  [422, 'ToolFailed'],
  [503, 'PluginUnavailable'],
  [504, 'ToolTimeout'],
];

/** What a plugin's ErrorKind means; `NotFound` says that what was asked for (a tool, prompt, resource…) is unknown. */
const CODE_BY_PLUGIN_KIND: Record<ResponseErrorKind, ErrorCode | 'notFound'> = {
  [ResponseErrorKind.None]: 'InternalError',
  [ResponseErrorKind.BadRequest]: 'InvalidArguments',
  [ResponseErrorKind.NotFound]: 'notFound',
  [ResponseErrorKind.Conflict]: 'Conflict',
  [ResponseErrorKind.Timeout]: 'ToolTimeout',
  [ResponseErrorKind.Unavailable]: 'PluginUnavailable',
  [ResponseErrorKind.Internal]: 'InternalError',
};

/** The code of a plugin's ErrorKind, for every request kind; `notFound` is the code of what that request asked for. */
export function errorCodeOfKind(errorKind: ResponseErrorKind, notFound: ErrorCode): ErrorCode {
  const code = CODE_BY_PLUGIN_KIND[errorKind];
  return code === 'notFound' ? notFound : code;
}

/** An explicit HTTP status wins (BadRequest + 422 is "thrown by the tool"); otherwise the plugin's kind decides. */
export function errorCodeOfReply(errorKind: ResponseErrorKind, httpStatusCode: number | undefined): ErrorCode {
  if (httpStatusCode !== undefined) {
    const hit = CODE_BY_STATUS.find(([status]) => status === httpStatusCode);
    if (hit) return hit[1];
    if (httpStatusCode >= 500) return 'InternalError';
    if (httpStatusCode >= 400) return 'InvalidArguments';
  }
  return errorCodeOfKind(errorKind, 'ToolNotFound');
}

/** McpPlugin.Server's DirectHttpErrorMapper: an explicit 400–599 wins, otherwise the kind decides. */
const DOTNET_STATUS_BY_KIND: Record<ResponseErrorKind, number> = {
  [ResponseErrorKind.None]: 500,
  [ResponseErrorKind.BadRequest]: 400,
  [ResponseErrorKind.NotFound]: 404,
  [ResponseErrorKind.Conflict]: 409,
  [ResponseErrorKind.Timeout]: 504,
  [ResponseErrorKind.Unavailable]: 503,
  [ResponseErrorKind.Internal]: 500,
};

export function dotNetHttpStatus(errorKind: ResponseErrorKind, httpStatusCode: number | undefined): number {
  return httpStatusCode !== undefined && httpStatusCode >= 400 && httpStatusCode <= 599 ? httpStatusCode : DOTNET_STATUS_BY_KIND[errorKind];
}

function nextFor(code: ErrorCode, tool: string): NextAction | undefined {
  const kind = KIND_BY_CODE[code];
  if (kind === 'binding') return next('fixArguments', tool);
  if (kind === 'unavailable' || kind === 'timeout') return next('retryLater', tool);
  return undefined;
}

/** A failure the bridge itself decided (routing, guard, transport); `pluginStatus` only for statuses McpPlugin.Server forwards. */
export function bridgeFailure(tool: string, code: ErrorCode, message: string, details?: Record<string, unknown>, pluginStatus?: number): ToolOutcome {
  const nextAction = nextFor(code, tool);
  return errorOutcome({ code, message, ...(nextAction ? { next: nextAction } : {}), ...(details ? { details } : {}) }, pluginStatus);
}

function successResult(reply: PluginReply): ToolOutcome {
  const structured = reply.structuredContent;
  if (structured === undefined) return { result: { content: toMcpContent(reply.content) } };
  const structuredContent =
    structured !== null && typeof structured === 'object' && !Array.isArray(structured) ? (structured as Record<string, unknown>) : { result: structured };
  const content = reply.content.length ? toMcpContent(reply.content) : [{ type: 'text' as const, text: JSON.stringify(structured) }];
  return { result: { content, structuredContent } };
}

/**
 * The outcome of a completed plugin call. The tool's own message travels unchanged: over MCP an agent
 * reads it as the plugin wrote it, and the direct HTTP API adds its `Tool execution failed for` form.
 * Older (pre-8.14) plugins are served as McpPlugin.Server serves them: their own content blocks, and
 * over HTTP their own status (explicit HttpStatusCode, else by ErrorKind) with their message as is.
 */
export function outcomeFromReply(tool: string, reply: PluginReply, guarded: boolean): ToolOutcome {
  if (reply.status !== ResponseStatus.Error) return successResult(reply);
  const code = errorCodeOfReply(reply.errorKind, reply.httpStatusCode);
  const message = reply.message || `The plugin reported an error without a message (kind ${reply.errorKind}).`;
  if (guarded) return bridgeFailure(tool, code, message);
  const outcome = bridgeFailure(tool, code, message, undefined, dotNetHttpStatus(reply.errorKind, reply.httpStatusCode));
  if (reply.content.length) outcome.result.content = toMcpContent(reply.content);
  return outcome;
}

/** The answer after the re-send window for a `notExecuted` call closed: 503 with the tool's message last. */
export function pluginReloadingOutcome(tool: string, reply: PluginReply, waitedMs: number): ToolOutcome {
  const seconds = Math.round(waitedMs / 100) / 10;
  return bridgeFailure(
    tool,
    'PluginReloading',
    `[plugin_reloading] '${tool}' was not run: the plugin did not finish reloading within ${seconds}s; try again shortly. ${reply.message}`.trimEnd(),
  );
}
