/**
 * MCP extension 1: the rest of MCP through the bridge. A plugin opts in by sending `extensions` in its
 * handshake; the server never invokes an extension method on a plugin that did not, so McpPlugin 8.x
 * clients see exactly the 8.x wire.
 *
 * Handshake: the plugin sends `extensions: { version: 1, features: [...] }` in RequestVersionHandshake;
 * the server answers with the features it supports in VersionHandshakeResponse.extensions.
 * Plugin → server (invocations answered with a ResponseData envelope; failures carry a stable `code`):
 *   RequestElicitation { requestId, elicitationId, message, requestedSchema, key? } → value { action, content? }
 *   RequestSampling    { requestId, samplingId, params: CreateMessageRequest params, key? } → value: CreateMessageResult
 *   RequestRoots       { requestId, rootsId, key? }                                → value: ListRootsResult { roots }
 *     (feature `roots`: the agent's roots, `roots/list`)
 *   CancelAgentRequest { requestId, nestedId }                                     → empty envelope
 *   `requestId` names the running call the question belongs to: a RunCallTool's, or (feature
 *   `contentRequests`) a RunGetPrompt's or RunResourceContent's while the plugin answers it.
 *   `key` (1–64 of A–Z a–z 0–9 _ . -) names the question where the agent's protocol keys its answers: a
 *   2026-07-28 agent gets it as the input request's key (`elicitation-N`, `sampling-N`, `roots-N`
 *   without one); a key that names another question still open for the same call is refused
 *   (InvalidRequest). A payload the schema refuses (a key that is not such a string) is answered with
 *   InvalidRequest and the schema's words.
 *   NotifyResourceUpdated { uri }                                                  → empty envelope
 *   NotifyLog gains `logger` and `data` and the eight MCP levels.
 *   NotifyOperator { requestId, level, title, message }                          → empty envelope
 *     (feature `operatorNotices`: a notice on the operator's console naming the plugin; sizes bounded
 *     below, the rate per connection by the server, which refuses the excess with TooManyRequests)
 * Server → plugin, only when the plugin declared the feature:
 *   RunCompletion { requestId, ref: { type: 'ref/prompt', name } | { type: 'ref/resource', uri }, argument: { name, value }, context? }
 *     → value { values: string[], total?, hasMore? }                               (feature `completion`)
 *   RunSubscribeResource / RunUnsubscribeResource { requestId, uri } → empty envelope (feature `subscriptions`)
 */
import { z } from 'zod';
import { errorData, responseDataFields, type ResponseData } from './envelope.js';
import type { ResponseErrorKind } from './enums.js';
import { dto, jsonObject, looseDto, optionalBoolean, optionalInt, optionalString } from './reading.js';

export const EXTENSIONS_VERSION = 1;
/**
 * `completion` and `subscriptions` gate server → plugin methods; the others say what the plugin may ask
 * for (`roots`: RequestRoots; `contentRequests`: questions while answering RunGetPrompt or RunResourceContent).
 */
export const EXTENSION_FEATURES = ['elicitation', 'sampling', 'logging', 'completion', 'subscriptions', 'operatorNotices', 'roots', 'contentRequests'] as const;
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
  /** The agent that made the call did not declare the MCP client capability (elicitation, sampling, roots). */
  CapabilityUnavailable: 'CapabilityUnavailable',
  /** No running call of this connection has that requestId (never started, already ended, agent gone). */
  CallNotActive: 'CallNotActive',
  /** The request does not satisfy the MCP specification or this contract (a requestedSchema with nested objects, a key already open). */
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

/** The most characters a question's key may have; the agent's protocol carries it as a map key. */
export const INPUT_KEY_MAX = 64;
/** A question's own name for the agent's answer (see the header); absent (or null), the server names it. */
export const InputKeySchema = z
  .string()
  .min(1)
  .max(INPUT_KEY_MAX)
  .regex(/^[\w.-]+$/, 'a key is letters, digits, _, . and - only')
  .nullish()
  .transform((v) => v ?? undefined);

export const RequestElicitationSchema = dto({
  requestId: z.string().min(1),
  elicitationId: z.string().min(1),
  message: z.string(),
  /** Checked against the MCP rules (flat object of primitive properties) by the server. */
  requestedSchema: jsonObject,
  key: InputKeySchema,
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
  key: InputKeySchema,
});
export type RequestSampling = z.output<typeof RequestSamplingSchema>;
/** `CreateMessageResult`: role, content, model, stopReason…; fields pass through. */
export const ResponseSamplingSchema = looseDto({ role: z.string(), content: z.unknown(), model: z.string() });
export type ResponseSampling = z.output<typeof ResponseSamplingSchema>;
export const ResponseSamplingDataSchema = extensionDataSchema(ResponseSamplingSchema);

export const RequestRootsSchema = dto({ requestId: z.string().min(1), rootsId: z.string().min(1), key: InputKeySchema });
export type RequestRoots = z.output<typeof RequestRootsSchema>;
/** `ListRootsResult`: the agent's roots (`file://` URIs, optional names); other fields pass through. */
export const ResponseRootsSchema = looseDto({ roots: z.array(looseDto({ uri: z.string(), name: optionalString })) });
export type ResponseRoots = z.output<typeof ResponseRootsSchema>;
export const ResponseRootsDataSchema = extensionDataSchema(ResponseRootsSchema);

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

/** The most a notice for the operator may say: a title the console shows on one line, a message of a few lines. */
export const NOTICE_TITLE_MAX = 120;
export const NOTICE_MESSAGE_MAX = 2_000;
export const NOTICE_LEVELS = ['info', 'warning', 'error'] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

// A title is one line: no control characters. A message may break lines and indent, nothing else.
const noticeTitle = z.string().trim().min(1).max(NOTICE_TITLE_MAX).refine((v) => !/\p{Cc}/u.test(v), 'holds a control character');
const noticeMessage = z.string().max(NOTICE_MESSAGE_MAX).refine((v) => !/[^\P{Cc}\n\r\t]/u.test(v), 'holds a control character other than a line break or tab');

export const NotifyOperatorSchema = dto({
  requestId: z.string().default(''),
  level: z.enum(NOTICE_LEVELS),
  title: noticeTitle,
  message: noticeMessage,
});
export type NotifyOperator = z.output<typeof NotifyOperatorSchema>;
/** The server's answer: an empty envelope, or a failure with its `code` (InvalidRequest, CapabilityUnavailable, TooManyRequests). */
export const NotifyOperatorReplySchema = extensionDataSchema(z.unknown());
