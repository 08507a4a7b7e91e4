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
 *
 * MCP extension 1 (the end of this file): elicitation, sampling, completion and resource subscriptions.
 * A plugin opts in by sending `extensions` in its handshake; the server never invokes an extension
 * method on a plugin that did not, so McpPlugin 8.x clients see exactly the 8.x wire.
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
  /** MCP extension 1: ask the user of the agent that made a running call (`elicitation/create`). */
  RequestElicitation: 'RequestElicitation',
  /** MCP extension 1: ask the model of the agent that made a running call (`sampling/createMessage`). */
  RequestSampling: 'RequestSampling',
  /** MCP extension 1: the plugin gives up on one of its own pending elicitation or sampling requests. */
  CancelAgentRequest: 'CancelAgentRequest',
  /** MCP extension 1: a resource changed (`notifications/resources/updated` to subscribed agents). */
  NotifyResourceUpdated: 'NotifyResourceUpdated',
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
  /** MCP extension 1 (`completion` feature): argument completion for a prompt or resource template. */
  RunCompletion: 'RunCompletion',
  /** MCP extension 1 (`subscriptions` feature): the first agent subscribed to a resource. */
  RunSubscribeResource: 'RunSubscribeResource',
  /** MCP extension 1 (`subscriptions` feature): the last agent unsubscribed from a resource. */
  RunUnsubscribeResource: 'RunUnsubscribeResource',
} as const;
export type ClientMethod = (typeof ClientMethod)[keyof typeof ClientMethod];

/**
 * An enum given as its number, its name in any case or a numeric string (as .NET's Enum.TryParse reads
 * it), as the number; undefined when it names none of `names`.
 */
export function enumIndex(names: readonly string[], value: number | string): number | undefined {
  const index = typeof value === 'number' || /^\d+$/.test(value) ? Number(value) : names.findIndex((n) => n.toLowerCase() === value.toLowerCase());
  return Number.isInteger(index) && index >= 0 && index < names.length ? index : undefined;
}

/** Builds a schema accepting what `enumIndex` reads, yielding the number. */
function numericEnum<const Names extends readonly string[]>(names: Names) {
  return z.union([z.number(), z.string()]).transform((value, ctx) => {
    const index = enumIndex(names, value);
    if (index === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected one of ${names.join(', ')} (or 0–${names.length - 1}), got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return index;
  });
}

export const STATUS_NAMES = ['Error', 'Success', 'Processing'] as const;
export const ERROR_KIND_NAMES = ['None', 'BadRequest', 'NotFound', 'Conflict', 'Timeout', 'Unavailable', 'Internal'] as const;
const ROLE_NAMES = ['User', 'Assistant'] as const;

export const ResponseStatus = { Error: 0, Success: 1, Processing: 2 } as const;
export type ResponseStatus = (typeof ResponseStatus)[keyof typeof ResponseStatus];
const responseStatusSchema = numericEnum(STATUS_NAMES).pipe(z.literal([0, 1, 2]));

export const ResponseErrorKind = { None: 0, BadRequest: 1, NotFound: 2, Conflict: 3, Timeout: 4, Unavailable: 5, Internal: 6 } as const;
export type ResponseErrorKind = (typeof ResponseErrorKind)[keyof typeof ResponseErrorKind];
const errorKindSchema = numericEnum(ERROR_KIND_NAMES).pipe(z.literal([0, 1, 2, 3, 4, 5, 6]));

export const Role = { User: 0, Assistant: 1 } as const;
export type Role = (typeof Role)[keyof typeof Role];
const roleSchema = numericEnum(ROLE_NAMES).pipe(z.literal([0, 1]));

/**
 * Matches an object's property names case-insensitively against `names` and renames them to those
 * spellings before `schema` reads it. Names outside the list are kept as they are; a property given
 * twice in different cases is an error, because which one the peer meant cannot be known.
 */
function foldKeys<T extends z.ZodType>(names: readonly string[], schema: T) {
  const canonical = new Map(names.map((name) => [name.toLowerCase(), name]));
  const exact = new Set(names);
  // Peers almost always spell every name as listed; then folding would copy the object unchanged.
  const alreadyCanonical = (input: object) => Object.keys(input).every((key) => exact.has(key) || !canonical.has(key.toLowerCase()));
  return z.preprocess((input, ctx) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input) || alreadyCanonical(input)) return input;
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
  /** Junction MCP extension (see the end of this file); absent for every McpPlugin client. */
  extensions: z.lazy(() => ExtensionsSchema).optional(),
});
export type RequestVersionHandshake = z.output<typeof RequestVersionHandshakeSchema>;

export const VersionHandshakeResponseSchema = dto({
  apiVersion: z.string(),
  serverVersion: z.string(),
  compatible: z.boolean(),
  message: z.string().nullish().transform((v) => v ?? ''),
  /** What the server supports of the extension; sent only to plugins that declared `extensions`. */
  extensions: z.lazy(() => ExtensionsSchema).optional(),
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

// ---- MCP extension 1 ---------------------------------------------------------------------------
//
// Handshake: the plugin sends `extensions: { version: 1, features: [...] }` in RequestVersionHandshake;
// the server answers with the features it supports in VersionHandshakeResponse.extensions.
// Plugin → server (invocations answered with a ResponseData envelope; failures carry a stable `code`):
//   RequestElicitation { requestId, elicitationId, message, requestedSchema }   → value { action, content? }
//   RequestSampling    { requestId, samplingId, params: CreateMessageRequest params } → value: CreateMessageResult
//   CancelAgentRequest { requestId, nestedId }                                     → empty envelope
//   NotifyResourceUpdated { uri }                                                  → empty envelope
//   NotifyLog gains `logger` and `data` and the eight MCP levels.
// Server → plugin, only when the plugin declared the feature:
//   RunCompletion { requestId, ref: { type: 'ref/prompt', name } | { type: 'ref/resource', uri }, argument: { name, value }, context? }
//     → value { values: string[], total?, hasMore? }                               (feature `completion`)
//   RunSubscribeResource / RunUnsubscribeResource { requestId, uri } → empty envelope (feature `subscriptions`)

export const EXTENSIONS_VERSION = 1;
/** `completion` and `subscriptions` gate server → plugin methods; the others say what the plugin may ask for. */
export const EXTENSION_FEATURES = ['elicitation', 'sampling', 'logging', 'completion', 'subscriptions'] as const;
export type ExtensionFeature = (typeof EXTENSION_FEATURES)[number];

/** Unknown feature names (a newer peer) are dropped rather than refused. */
export const ExtensionsSchema = dto({
  version: z.number().int().min(1),
  features: z
    .array(z.string())
    .max(64)
    .transform((names) => names.filter((n): n is ExtensionFeature => (EXTENSION_FEATURES as readonly string[]).includes(n))),
});
export type Extensions = z.output<typeof ExtensionsSchema>;

/** Stable codes of extension failures, in `code` of the envelope. */
export const ExtensionErrorCode = {
  /** The agent that made the call did not declare the MCP client capability (elicitation, sampling). */
  CapabilityUnavailable: 'CapabilityUnavailable',
  /** No running call of this connection has that requestId (never started, already ended, agent gone). */
  CallNotActive: 'CallNotActive',
  /** The request does not satisfy the MCP specification (e.g. a requestedSchema with nested objects). */
  InvalidRequest: 'InvalidRequest',
  /** The agent answered with an error, or cancelled. */
  AgentRequestFailed: 'AgentRequestFailed',
  /** Too many nested requests pending for one call. */
  TooManyRequests: 'TooManyRequests',
} as const;
export type ExtensionErrorCode = (typeof ExtensionErrorCode)[keyof typeof ExtensionErrorCode];

/** An extension result envelope: ResponseData plus the stable `code` of a failure. */
export function extensionDataSchema<T extends z.ZodType>(value: T) {
  return dto({ ...responseDataFields, value: value.nullish(), code: optionalString });
}

export const RequestElicitationSchema = dto({
  requestId: z.string().min(1),
  elicitationId: z.string().min(1),
  message: z.string(),
  /** Checked against the MCP rules (flat object of primitive properties) by the server. */
  requestedSchema: jsonObject,
});
export type RequestElicitation = z.output<typeof RequestElicitationSchema>;

export const ElicitationActionSchema = z.enum(['accept', 'decline', 'cancel']);
export const ResponseElicitationSchema = dto({
  action: z.string().transform((v, ctx) => {
    const parsed = ElicitationActionSchema.safeParse(v.toLowerCase());
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: 'expected accept, decline or cancel' });
    return z.NEVER;
  }),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).nullish().transform((v) => v ?? undefined),
});
export type ResponseElicitation = z.output<typeof ResponseElicitationSchema>;
export const ResponseElicitationDataSchema = extensionDataSchema(ResponseElicitationSchema);

export const RequestSamplingSchema = dto({
  requestId: z.string().min(1),
  samplingId: z.string().min(1),
  /** `sampling/createMessage` params (messages, maxTokens, …), validated by the server against the MCP schema. */
  params: jsonObject,
});
export type RequestSampling = z.output<typeof RequestSamplingSchema>;
/** `CreateMessageResult`: role, content, model, stopReason…; fields pass through. */
export const ResponseSamplingSchema = looseDto({ role: z.string(), content: z.unknown(), model: z.string() });
export type ResponseSampling = z.output<typeof ResponseSamplingSchema>;
export const ResponseSamplingDataSchema = extensionDataSchema(ResponseSamplingSchema);

export const CancelAgentRequestSchema = dto({ requestId: z.string().min(1), nestedId: z.string().min(1), reason: optionalString });
export type CancelAgentRequest = z.output<typeof CancelAgentRequestSchema>;

export const NotifyResourceUpdatedSchema = dto({ requestId: z.string().default(''), uri: z.string().min(1).max(4096) });
export type NotifyResourceUpdated = z.output<typeof NotifyResourceUpdatedSchema>;

export const CompletionRefSchema = z.union([dto({ type: z.literal('ref/prompt'), name: z.string() }), dto({ type: z.literal('ref/resource'), uri: z.string() })]);
export type CompletionRef = z.output<typeof CompletionRefSchema>;
export const RequestCompletionSchema = dto({
  requestId: z.string(),
  ref: CompletionRefSchema,
  argument: dto({ name: z.string(), value: z.string() }),
  context: dto({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});
export type RequestCompletion = z.output<typeof RequestCompletionSchema>;
/** MCP caps a completion at 100 values. */
export const COMPLETION_MAX_VALUES = 100;
export const ResponseCompletionSchema = dto({
  values: z.array(z.string()).transform((v) => v.slice(0, COMPLETION_MAX_VALUES)),
  total: optionalInt,
  hasMore: optionalBoolean,
});
export type ResponseCompletion = z.output<typeof ResponseCompletionSchema>;
export const ResponseCompletionDataSchema = extensionDataSchema(ResponseCompletionSchema);

export const RequestResourceSubscriptionSchema = dto({ requestId: z.string(), uri: z.string() });
export type RequestResourceSubscription = z.output<typeof RequestResourceSubscriptionSchema>;

/** A failed extension envelope with its stable code. */
export function extensionError(requestId: string, code: ExtensionErrorCode, message: string, errorKind: ResponseErrorKind): ResponseData<never> & { code: string } {
  return { ...errorData(requestId, message, errorKind), code };
}
