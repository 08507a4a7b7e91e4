/** Tools: the catalogue, a call and its reply, long-running completion, and Junction's progress, log and cancel messages. */
import { z } from 'zod';
import { ContentBlockSchema, RequestIdOnlySchema, responseDataSchema } from './envelope.js';
import { errorKindSchema, ResponseErrorKind, ResponseStatus, responseStatusSchema } from './enums.js';
import { dto, enabledFlag, jsonObject, optionalBoolean, optionalInt, optionalString } from './reading.js';

export type RequestListTool = z.output<typeof RequestIdOnlySchema>;
export type RequestToolsUpdated = RequestListTool;

export const ResponseListToolSchema = dto({
  name: z.string().min(1),
  enabled: enabledFlag,
  title: optionalString,
  description: optionalString,
  inputSchema: jsonObject.nullish().transform((v) => v ?? { type: 'object', additionalProperties: false }),
  outputSchema: jsonObject.nullish().transform((v) => v ?? undefined),
  readOnlyHint: optionalBoolean,
  destructiveHint: optionalBoolean,
  idempotentHint: optionalBoolean,
  openWorldHint: optionalBoolean,
});
export type ResponseListTool = z.output<typeof ResponseListToolSchema>;
export const ResponseListToolsDataSchema = responseDataSchema(z.array(ResponseListToolSchema));

export const RequestCallToolSchema = dto({
  requestId: z.string(),
  name: z.string(),
  arguments: jsonObject.nullish().transform((v) => v ?? {}),
  /**
   * Junction's extension: the calling agent's W3C `traceparent`, when it sent a valid one. McpPlugin's
   * RequestCallTool has no such property; the .NET client's options (ReflectorNet, no
   * UnmappedMemberHandling) skip what they do not map, so it reads the call as before.
   */
  traceparent: optionalString.optional(),
});
export type RequestCallTool = z.output<typeof RequestCallToolSchema>;

export const ResponseCallToolSchema = dto({
  requestId: z.string().default(''),
  status: responseStatusSchema.default(ResponseStatus.Error),
  content: z.array(ContentBlockSchema).nullish().transform((v) => v ?? []),
  structuredContent: z.unknown().optional(),
  errorKind: errorKindSchema.nullish().transform((v) => v ?? ResponseErrorKind.None),
  httpStatusCode: optionalInt,
  /** True only when the tool changed nothing and a plugin reload ends the condition (8.16 ToolUnavailable). */
  notExecuted: optionalBoolean,
});
export type ResponseCallTool = z.output<typeof ResponseCallToolSchema>;
export const ResponseCallToolDataSchema = responseDataSchema(ResponseCallToolSchema);

/** McpPlugin.Server completes the call named by `result.requestId`; `requestId` is read as a fallback. */
export const RequestToolCompletedDataSchema = dto({ requestId: z.string().default(''), result: ResponseCallToolSchema });
export type RequestToolCompletedData = z.output<typeof RequestToolCompletedDataSchema>;

/** Junction extension payloads. */
export const NotifyToolProgressSchema = dto({
  requestId: z.string(),
  progress: z.number(),
  total: z.number().nullish().transform((v) => v ?? undefined),
  message: optionalString,
});
export type NotifyToolProgress = z.output<typeof NotifyToolProgressSchema>;

/** The MCP (RFC 5424) levels, least severe first; McpPlugin-era plugins send only the first, second, fourth and fifth. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const NotifyLogSchema = dto({
  requestId: optionalString,
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  /** MCP extension 1: the logger name and a structured payload forwarded to agents instead of `message`. */
  logger: optionalString,
  data: z.unknown().optional(),
});
export type NotifyLog = z.output<typeof NotifyLogSchema>;

export const CancelToolRequestSchema = dto({ requestId: z.string(), reason: optionalString });
export type CancelToolRequest = z.output<typeof CancelToolRequestSchema>;
