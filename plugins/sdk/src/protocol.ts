/**
 * The McpPlugin hub wire contract, the single source of truth for both the TypeScript plugin SDK and
 * Junction's bridge. Method names and DTO shapes follow McpPlugin 8.0 (specs/mcp-plugin-hub-contract.md);
 * behaviour added in 8.14–8.16 (roles, `mcpPluginVersion`, `notExecuted`) follows the seed document.
 *
 * Reading: every DTO is read with its property names matched case-insensitively, as the .NET hub
 * reader does, so the real .NET client's PascalCase (`RequestID`, `Status`, `Value`, `InputSchema`…)
 * and this SDK's camelCase are one shape; a property spelled twice (`Status` and `status`) is refused.
 * Opaque JSON (tool arguments, schemas, structured content) keeps its keys untouched. Enums
 * (`ResponseStatus`, `ResponseErrorKind`, `Role`) are read as names in any case or as numbers and
 * come out as numbers; `null` reads as absent.
 *
 * Writing: `toDotNetWire` writes a payload the way McpPlugin.Server writes it (PascalCase, enum names,
 * nulls omitted); only the four DTOs with explicit names (the handshake pair, McpClientData,
 * McpServerData) stay camelCase. This SDK itself still writes camelCase with numeric enums, which
 * every reader of the contract accepts.
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

/** Builds a schema accepting an enum as its number, its name in any case or a numeric string (as .NET's Enum.TryParse does), yielding the number. */
function numericEnum<const Names extends readonly string[]>(names: Names) {
  return z.union([z.number(), z.string()]).transform((value, ctx) => {
    const index = typeof value === 'number' || /^\d+$/.test(value) ? Number(value) : names.findIndex((n) => n.toLowerCase() === value.toLowerCase());
    if (!Number.isInteger(index) || index < 0 || index >= names.length) {
      ctx.addIssue({ code: 'custom', message: `expected one of ${names.join(', ')} (or 0–${names.length - 1}), got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return index;
  });
}

const STATUS_NAMES = ['Error', 'Success', 'Processing'] as const;
const ERROR_KIND_NAMES = ['None', 'BadRequest', 'NotFound', 'Conflict', 'Timeout', 'Unavailable', 'Internal'] as const;
const ROLE_NAMES = ['User', 'Assistant'] as const;

export const ResponseStatus = { Error: 0, Success: 1, Processing: 2 } as const;
export type ResponseStatus = (typeof ResponseStatus)[keyof typeof ResponseStatus];
const responseStatusSchema = numericEnum(STATUS_NAMES).pipe(z.union([z.literal(0), z.literal(1), z.literal(2)]));

export const ResponseErrorKind = { None: 0, BadRequest: 1, NotFound: 2, Conflict: 3, Timeout: 4, Unavailable: 5, Internal: 6 } as const;
export type ResponseErrorKind = (typeof ResponseErrorKind)[keyof typeof ResponseErrorKind];
const errorKindSchema = numericEnum(ERROR_KIND_NAMES).pipe(
  z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)]),
);

export const Role = { User: 0, Assistant: 1 } as const;
export type Role = (typeof Role)[keyof typeof Role];
const roleSchema = numericEnum(ROLE_NAMES).pipe(z.union([z.literal(0), z.literal(1)]));

/**
 * Matches an object's property names case-insensitively against `names` and renames them to those
 * spellings before `schema` reads it. Names outside the list are kept as they are; a property given
 * twice in different cases is an error, because which one the peer meant cannot be known.
 */
function foldKeys<T extends z.ZodType>(names: readonly string[], schema: T) {
  const canonical = new Map(names.map((name) => [name.toLowerCase(), name]));
  return z.preprocess((input, ctx) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
    const folded: Record<string, unknown> = {};
    const spelledAs = new Map<string, string>();
    for (const [key, value] of Object.entries(input)) {
      const name = canonical.get(key.toLowerCase()) ?? key;
      const earlier = spelledAs.get(name);
      if (earlier !== undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: `duplicate property: '${earlier}' and '${key}' name the same field '${name}'` });
        continue;
      }
      spelledAs.set(name, key);
      folded[name] = value;
    }
    return folded;
  }, schema);
}

/** A .NET DTO read case-insensitively; unknown properties are dropped. */
function dto<Shape extends z.ZodRawShape>(shape: Shape) {
  return foldKeys(Object.keys(shape), z.object(shape));
}

/** A .NET DTO read case-insensitively whose unknown properties pass through (content blocks). */
function looseDto<Shape extends z.ZodRawShape>(shape: Shape) {
  return foldKeys(Object.keys(shape), z.looseObject(shape));
}

const optionalString = z.string().nullish().transform((v) => v ?? undefined);
const optionalBoolean = z.boolean().nullish().transform((v) => v ?? undefined);
const optionalInt = z.number().int().nullish().transform((v) => v ?? undefined);
const jsonObject = z.record(z.string(), z.unknown());
/** McpPlugin's `Enabled` (default true): a disabled entry is listed by the plugin but never published. */
const enabledFlag = z.boolean().nullish().transform((v) => v ?? true);

/**
 * An MCP content block (text, image, audio, resource…) in McpPlugin's ContentBlock shape; the fields
 * it names are read case-insensitively, others (`annotations`, `_meta`, a resource link's `uri`…) pass through,
 * and nothing here is required beyond `type`: a block MCP cannot carry becomes text later, never a refused reply.
 */
export const ContentBlockSchema = looseDto({
  type: z.string(),
  text: z.string().nullish(),
  data: z.string().nullish(),
  mimeType: z.string().nullish(),
  resource: looseDto({ uri: z.string().nullish(), mimeType: z.string().nullish(), text: z.string().nullish(), blob: z.string().nullish() }).nullish(),
});
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
  return dto({ ...responseDataFields, value: value.nullish() });
}
export const ResponseDataSchema = dto(responseDataFields);
export type ResponseData<T = undefined> = z.output<typeof ResponseDataSchema> & { value?: T | null };

// ---- handshake ---------------------------------------------------------------------------------

export const RequestVersionHandshakeSchema = dto({
  requestId: z.string().default(''),
  apiVersion: z.string(),
  pluginVersion: z.string().default(''),
  environment: z.string().default(''),
  /** Since McpPlugin 8.14; absent for older plugins, which keep the 8.0-era behaviour. */
  mcpPluginVersion: optionalString,
});
export type RequestVersionHandshake = z.output<typeof RequestVersionHandshakeSchema>;

export const VersionHandshakeResponseSchema = dto({
  apiVersion: z.string(),
  serverVersion: z.string(),
  compatible: z.boolean(),
  message: z.string().nullish().transform((v) => v ?? ''),
});
export type VersionHandshakeResponse = z.output<typeof VersionHandshakeResponseSchema>;

// ---- tools -------------------------------------------------------------------------------------

export const RequestIdOnlySchema = dto({ requestId: z.string().default('') });
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

export const LOG_LEVELS = ['debug', 'info', 'warning', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const NotifyLogSchema = dto({
  requestId: optionalString,
  level: z.enum(LOG_LEVELS),
  message: z.string(),
});
export type NotifyLog = z.output<typeof NotifyLogSchema>;

export const CancelToolRequestSchema = dto({ requestId: z.string(), reason: optionalString });
export type CancelToolRequest = z.output<typeof CancelToolRequestSchema>;

// ---- prompts -----------------------------------------------------------------------------------

export const ResponsePromptArgumentSchema = dto({
  name: z.string(),
  title: optionalString,
  description: optionalString,
  required: optionalBoolean,
});
export const ResponsePromptSchema = dto({
  name: z.string().min(1),
  enabled: enabledFlag,
  title: optionalString,
  description: optionalString,
  arguments: z.array(ResponsePromptArgumentSchema).nullish().transform((v) => v ?? undefined),
});
export type ResponsePrompt = z.output<typeof ResponsePromptSchema>;
/** `ResponseListPrompts` is a list of prompts; an object `{ prompts }` is accepted for tolerance. */
export const ResponseListPromptsSchema = z.union([
  z.array(ResponsePromptSchema),
  dto({ prompts: z.array(ResponsePromptSchema) }).transform((v) => v.prompts),
]);
export const ResponseListPromptsDataSchema = responseDataSchema(ResponseListPromptsSchema);

export const RequestGetPromptSchema = dto({
  requestId: z.string(),
  name: z.string(),
  arguments: jsonObject.nullish().transform((v) => v ?? {}),
});
export type RequestGetPrompt = z.output<typeof RequestGetPromptSchema>;

export const ResponsePromptMessageSchema = dto({ role: roleSchema, content: ContentBlockSchema });
export const ResponseGetPromptSchema = dto({
  requestId: z.string().default(''),
  status: responseStatusSchema.default(ResponseStatus.Error),
  description: optionalString,
  messages: z.array(ResponsePromptMessageSchema).nullish().transform((v) => v ?? []),
});
export type ResponseGetPrompt = z.output<typeof ResponseGetPromptSchema>;
export const ResponseGetPromptDataSchema = responseDataSchema(ResponseGetPromptSchema);

// ---- resources ---------------------------------------------------------------------------------

export const ResponseListResourceSchema = dto({
  uri: z.string().min(1),
  name: z.string(),
  enabled: enabledFlag,
  mimeType: optionalString,
  description: optionalString,
  size: optionalInt,
});
export type ResponseListResource = z.output<typeof ResponseListResourceSchema>;
export const ResponseListResourcesDataSchema = responseDataSchema(z.array(ResponseListResourceSchema));

export const ResponseResourceTemplateSchema = dto({
  uriTemplate: z.string().min(1),
  name: z.string(),
  enabled: enabledFlag,
  mimeType: optionalString,
  description: optionalString,
});
export type ResponseResourceTemplate = z.output<typeof ResponseResourceTemplateSchema>;
export const ResponseResourceTemplatesDataSchema = responseDataSchema(z.array(ResponseResourceTemplateSchema));

export const RequestResourceContentSchema = dto({ requestId: z.string(), uri: z.string() });
export type RequestResourceContent = z.output<typeof RequestResourceContentSchema>;

export const ResponseResourceContentSchema = dto({
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

/** Spellings that are not the camelCase name with its first letter raised (`Consts`-era DTOs spell `RequestID`). */
const PASCAL_NAMES: Readonly<Record<string, string>> = { requestId: 'RequestID' };
/** Properties whose values are opaque JSON: their keys belong to the tool or schema author, not to the DTO. */
const OPAQUE_PROPERTIES = new Set(['arguments', 'inputSchema', 'outputSchema', 'structuredContent', '_meta']);
/** Enum-typed properties, written by name as ReflectorNet's EnumJsonConverter writes them. */
const ENUM_NAMES: Readonly<Record<string, readonly string[]>> = { status: STATUS_NAMES, errorKind: ERROR_KIND_NAMES, role: ROLE_NAMES };

/**
 * A payload in McpPlugin.Server's own writing (PascalCase property names, enum names, nulls and
 * undefined omitted), which the .NET client and this SDK both read. Do not pass the explicitly named
 * DTOs (handshake, McpClientData, McpServerData): they are camelCase on every side.
 */
export function toDotNetWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDotNetWire);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || field === null) continue;
    const name = PASCAL_NAMES[key] ?? (key.startsWith('_') ? key : key.charAt(0).toUpperCase() + key.slice(1));
    const enumNames = ENUM_NAMES[key];
    if (OPAQUE_PROPERTIES.has(key)) out[name] = field;
    else if (enumNames && typeof field === 'number') out[name] = enumNames[field] ?? field;
    else out[name] = toDotNetWire(field);
  }
  return out;
}
