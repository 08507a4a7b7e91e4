/**
 * The McpPlugin hub wire contract, the single source of truth for both the TypeScript plugin SDK and
 * Junction's bridge. Method names and DTO shapes follow McpPlugin 8.0 (specs/mcp-plugin-hub-contract.md);
 * behaviour added in 8.14–8.16 (roles, `mcpPluginVersion`, `notExecuted`) follows the seed document.
 *
 * JSON is camelCase. Enums (`ResponseStatus`, `ResponseErrorKind`, `Role`) are SENT as numbers in the
 * order the .NET enums declare them, because System.Text.Json writes enums as numbers unless a string
 * converter is configured; on INPUT both the number and the enum name (any case) are accepted, so a
 * peer configured with a string enum converter still interoperates. Optional fields accept `null`
 * (what .NET writes for an unset nullable) and are omitted when we send.
 *
 * Junction extensions (not in McpPlugin; a .NET server ignores unknown methods a plugin never calls,
 * and a .NET plugin never calls them): `NotifyToolProgress`, `NotifyLog` (plugin → server) and
 * `CancelToolRequest` (server → plugin), plus the optional `notExecuted` on ResponseCallTool.
 */
import { z } from 'zod';

/** Hub path on the bridge (`Consts.Hub.RemoteApp`). */
export const HUB_PATH = '/hub/mcp-server';
export const DEFAULT_ENDPOINT = `http://localhost:8080${HUB_PATH}`;
/** Hub API version both sides exchange in the handshake (`Consts.ApiVersion`). */
export const API_VERSION = '2.0.0';
/** The McpPlugin contract version this SDK and the bridge speak. */
export const MCP_PLUGIN_VERSION = '8.16.0';
/** Plugins reporting at least this `mcpPluginVersion` get argument validation and the call guard. */
export const CALL_GUARD_MIN_VERSION = '8.14.0';
/** Default whole-call deadline (`Consts.Hub.DefaultTimeoutMs`). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Connect-URL query keys and headers. */
export const HubQuery = {
  clientRole: 'client_role',
  instanceId: 'instance_id',
  engine: 'engine',
  projectName: 'project_name',
  machineName: 'machine_name',
} as const;
export const CLIENT_ROLE_HEADER = 'x-client-role';

/** Methods the plugin invokes on the server. */
export const ServerMethod = {
  PerformVersionHandshake: 'PerformVersionHandshake',
  GetMcpClientData: 'GetMcpClientData',
  GetMcpServerData: 'GetMcpServerData',
  NotifyAboutUpdatedTools: 'NotifyAboutUpdatedTools',
  NotifyToolRequestCompleted: 'NotifyToolRequestCompleted',
  NotifyAboutUpdatedPrompts: 'NotifyAboutUpdatedPrompts',
  NotifyAboutUpdatedResources: 'NotifyAboutUpdatedResources',
  /** Junction extension: progress of a running tool call. */
  NotifyToolProgress: 'NotifyToolProgress',
  /** Junction extension: a log line from the plugin, optionally tied to a tool call. */
  NotifyLog: 'NotifyLog',
} as const;
export type ServerMethod = (typeof ServerMethod)[keyof typeof ServerMethod];

/** Methods the server invokes on the plugin; all but the last four expect a client result. */
export const ClientMethod = {
  RunCallTool: 'RunCallTool',
  RunListTool: 'RunListTool',
  RunSystemTool: 'RunSystemTool',
  RunListSystemTool: 'RunListSystemTool',
  RunGetPrompt: 'RunGetPrompt',
  RunListPrompts: 'RunListPrompts',
  RunResourceContent: 'RunResourceContent',
  RunListResources: 'RunListResources',
  RunResourceTemplates: 'RunResourceTemplates',
  ForceDisconnect: 'ForceDisconnect',
  OnInitialClientData: 'OnInitialClientData',
  OnMcpClientConnected: 'OnMcpClientConnected',
  OnMcpClientDisconnected: 'OnMcpClientDisconnected',
  /** Junction extension: the bridge gave up on a call (deadline, agent cancelled); no result expected. */
  CancelToolRequest: 'CancelToolRequest',
} as const;
export type ClientMethod = (typeof ClientMethod)[keyof typeof ClientMethod];

/** Builds a schema accepting an enum as its number or its name (case-insensitive) and yielding the number. */
function numericEnum<const Names extends readonly string[]>(names: Names) {
  return z.union([z.number().int().min(0).max(names.length - 1), z.string()]).transform((value, ctx) => {
    if (typeof value === 'number') return value;
    const index = names.findIndex((n) => n.toLowerCase() === value.toLowerCase());
    if (index < 0) {
      ctx.addIssue({ code: 'custom', message: `expected one of ${names.join(', ')}` });
      return z.NEVER;
    }
    return index;
  });
}

export const ResponseStatus = { Error: 0, Success: 1, Processing: 2 } as const;
export type ResponseStatus = (typeof ResponseStatus)[keyof typeof ResponseStatus];
const responseStatusSchema = numericEnum(['Error', 'Success', 'Processing'] as const).pipe(z.union([z.literal(0), z.literal(1), z.literal(2)]));

export const ResponseErrorKind = { None: 0, BadRequest: 1, NotFound: 2, Conflict: 3, Timeout: 4, Unavailable: 5, Internal: 6 } as const;
export type ResponseErrorKind = (typeof ResponseErrorKind)[keyof typeof ResponseErrorKind];
const errorKindSchema = numericEnum(['None', 'BadRequest', 'NotFound', 'Conflict', 'Timeout', 'Unavailable', 'Internal'] as const).pipe(
  z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)]),
);

export const Role = { User: 0, Assistant: 1 } as const;
export type Role = (typeof Role)[keyof typeof Role];
const roleSchema = numericEnum(['User', 'Assistant'] as const).pipe(z.union([z.literal(0), z.literal(1)]));

const optionalString = z.string().nullish().transform((v) => v ?? undefined);
const optionalBoolean = z.boolean().nullish().transform((v) => v ?? undefined);
const optionalInt = z.number().int().nullish().transform((v) => v ?? undefined);
const jsonObject = z.record(z.string(), z.unknown());

/** An MCP content block (text, image, audio, resource…); fields beyond `type` pass through untouched. */
export const ContentBlockSchema = z.looseObject({ type: z.string() });
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

const responseDataFields = {
  requestId: z.string().default(''),
  status: responseStatusSchema,
  message: optionalString,
  errorKind: errorKindSchema.nullish().transform((v) => v ?? ResponseErrorKind.None),
  httpStatusCode: optionalInt,
};

/** The envelope every hub result travels in; `value` carries the payload. */
export function responseDataSchema<T extends z.ZodType>(value: T) {
  return z.object({ ...responseDataFields, value: value.nullish() });
}
export const ResponseDataSchema = z.object(responseDataFields);
export type ResponseData<T = undefined> = z.output<typeof ResponseDataSchema> & { value?: T | null };

// ---- handshake ---------------------------------------------------------------------------------

export const RequestVersionHandshakeSchema = z.object({
  requestId: z.string().default(''),
  apiVersion: z.string(),
  pluginVersion: z.string().default(''),
  environment: z.string().default(''),
  /** Since McpPlugin 8.14; absent for older plugins, which keep the 8.0-era behaviour. */
  mcpPluginVersion: optionalString,
});
export type RequestVersionHandshake = z.output<typeof RequestVersionHandshakeSchema>;

export const VersionHandshakeResponseSchema = z.object({
  apiVersion: z.string(),
  serverVersion: z.string(),
  compatible: z.boolean(),
  message: z.string().nullish().transform((v) => v ?? ''),
});
export type VersionHandshakeResponse = z.output<typeof VersionHandshakeResponseSchema>;

// ---- tools -------------------------------------------------------------------------------------

export const RequestIdOnlySchema = z.object({ requestId: z.string().default('') });
export type RequestListTool = z.output<typeof RequestIdOnlySchema>;
export type RequestToolsUpdated = RequestListTool;

export const ResponseListToolSchema = z.object({
  name: z.string().min(1),
  enabled: z.boolean().nullish().transform((v) => v ?? true),
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

export const RequestCallToolSchema = z.object({
  requestId: z.string(),
  name: z.string(),
  arguments: jsonObject.nullish().transform((v) => v ?? {}),
});
export type RequestCallTool = z.output<typeof RequestCallToolSchema>;

export const ResponseCallToolSchema = z.object({
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

export const RequestToolCompletedDataSchema = z.object({ requestId: z.string(), result: ResponseCallToolSchema });
export type RequestToolCompletedData = z.output<typeof RequestToolCompletedDataSchema>;

/** Junction extension payloads. */
export const NotifyToolProgressSchema = z.object({
  requestId: z.string(),
  progress: z.number(),
  total: z.number().nullish().transform((v) => v ?? undefined),
  message: optionalString,
});
export type NotifyToolProgress = z.output<typeof NotifyToolProgressSchema>;

export const LOG_LEVELS = ['debug', 'info', 'warning', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const NotifyLogSchema = z.object({
  requestId: optionalString,
  level: z.enum(LOG_LEVELS),
  message: z.string(),
});
export type NotifyLog = z.output<typeof NotifyLogSchema>;

export const CancelToolRequestSchema = z.object({ requestId: z.string(), reason: optionalString });
export type CancelToolRequest = z.output<typeof CancelToolRequestSchema>;

// ---- prompts -----------------------------------------------------------------------------------

export const ResponsePromptArgumentSchema = z.object({
  name: z.string(),
  title: optionalString,
  description: optionalString,
  required: optionalBoolean,
});
export const ResponsePromptSchema = z.object({
  name: z.string().min(1),
  title: optionalString,
  description: optionalString,
  arguments: z.array(ResponsePromptArgumentSchema).nullish().transform((v) => v ?? undefined),
});
export type ResponsePrompt = z.output<typeof ResponsePromptSchema>;
/** `ResponseListPrompts` is a list of prompts; an object `{ prompts }` is accepted for tolerance. */
export const ResponseListPromptsSchema = z.union([
  z.array(ResponsePromptSchema),
  z.object({ prompts: z.array(ResponsePromptSchema) }).transform((v) => v.prompts),
]);
export const ResponseListPromptsDataSchema = responseDataSchema(ResponseListPromptsSchema);

export const RequestGetPromptSchema = z.object({
  requestId: z.string(),
  name: z.string(),
  arguments: jsonObject.nullish().transform((v) => v ?? {}),
});
export type RequestGetPrompt = z.output<typeof RequestGetPromptSchema>;

export const ResponsePromptMessageSchema = z.object({ role: roleSchema, content: ContentBlockSchema });
export const ResponseGetPromptSchema = z.object({
  requestId: z.string().default(''),
  status: responseStatusSchema.default(ResponseStatus.Error),
  description: optionalString,
  messages: z.array(ResponsePromptMessageSchema).nullish().transform((v) => v ?? []),
});
export type ResponseGetPrompt = z.output<typeof ResponseGetPromptSchema>;
export const ResponseGetPromptDataSchema = responseDataSchema(ResponseGetPromptSchema);

// ---- resources ---------------------------------------------------------------------------------

export const ResponseListResourceSchema = z.object({
  uri: z.string().min(1),
  name: z.string(),
  mimeType: optionalString,
  description: optionalString,
  size: optionalInt,
});
export type ResponseListResource = z.output<typeof ResponseListResourceSchema>;
export const ResponseListResourcesDataSchema = responseDataSchema(z.array(ResponseListResourceSchema));

export const ResponseResourceTemplateSchema = z.object({
  uriTemplate: z.string().min(1),
  name: z.string(),
  mimeType: optionalString,
  description: optionalString,
});
export type ResponseResourceTemplate = z.output<typeof ResponseResourceTemplateSchema>;
export const ResponseResourceTemplatesDataSchema = responseDataSchema(z.array(ResponseResourceTemplateSchema));

export const RequestResourceContentSchema = z.object({ requestId: z.string(), uri: z.string() });
export type RequestResourceContent = z.output<typeof RequestResourceContentSchema>;

export const ResponseResourceContentSchema = z.object({
  uri: z.string(),
  mimeType: optionalString,
  text: optionalString,
  blob: optionalString,
});
export type ResponseResourceContent = z.output<typeof ResponseResourceContentSchema>;
export const ResponseResourceContentDataSchema = responseDataSchema(z.array(ResponseResourceContentSchema));

// ---- helpers -----------------------------------------------------------------------------------

/** RFC 6570 level-1 match of a resource URI against a template: each `{var}` is one or more non-`/` characters. */
export function matchesUriTemplate(uriTemplate: string, uri: string): boolean {
  const pattern = uriTemplate
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') && part.endsWith('}') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`).test(uri);
}

/** A successful envelope around `value`. */
export function successData<T>(requestId: string, value?: T): ResponseData<T> {
  return value === undefined
    ? { requestId, status: ResponseStatus.Success, errorKind: ResponseErrorKind.None, message: undefined, httpStatusCode: undefined }
    : { requestId, status: ResponseStatus.Success, errorKind: ResponseErrorKind.None, message: undefined, httpStatusCode: undefined, value };
}

/** A failed envelope; `errorKind` and `httpStatusCode` say why (see ResponseErrorKind). */
export function errorData(requestId: string, message: string, errorKind: ResponseErrorKind, httpStatusCode?: number): ResponseData<never> {
  return { requestId, status: ResponseStatus.Error, message, errorKind, httpStatusCode };
}
