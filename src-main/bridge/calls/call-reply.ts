/**
 * Reading a plugin's answer to RunCallTool. Nearly every plugin (McpPlugin over SignalR's camelCase
 * JSON, Junction's SDK) answers with the ResponseData envelope spelled exactly as the schema names
 * it, numeric enums and text content blocks. `readWellFormedReply` reads that shape by hand, because
 * the zod schema costs a noticeable share of every call's CPU; it yields exactly what the schema would
 * (values, which keys are present, key order) and declines anything else (other spellings, enum names,
 * embedded resources, any malformed value), which the schema then reads, so every refusal keeps the
 * schema's own message. test/unit/bridge/calls/call-reply.test.ts holds both readers to that.
 */
import { z } from 'zod';
import {
  enumIndex,
  ERROR_KIND_NAMES,
  ResponseCallToolDataSchema,
  ResponseCallToolSchema,
  ResponseErrorKind,
  ResponseStatus,
  STATUS_NAMES,
  type ContentBlock,
  type ResponseCallTool,
} from '../../../plugins/sdk/wire/index.js';
import { InvokeFailure } from './failures.js';
import { replyFromEnvelope, type PluginReply } from './outcome.js';

type CallToolData = z.output<typeof ResponseCallToolDataSchema>;

/** Marks a value the hand-written reader leaves to the schema. */
const DECLINED = Symbol('declined');
type Read<T> = T | typeof DECLINED;

/** A field list as the schema spells it, and the lower-case forms the schema would fold other spellings to. */
interface Fields {
  readonly exact: ReadonlySet<string>;
  readonly folded: ReadonlySet<string>;
}

function fields(names: readonly string[]): Fields {
  return { exact: new Set(names), folded: new Set(names.map((name) => name.toLowerCase())) };
}

const ENVELOPE = fields(['requestId', 'status', 'message', 'errorKind', 'httpStatusCode', 'value']);
const CALL_TOOL = fields(['requestId', 'status', 'content', 'structuredContent', 'errorKind', 'httpStatusCode', 'notExecuted']);
const BLOCK = fields(['type', 'text', 'data', 'mimeType', 'resource']);

/**
 * A JSON object literal whose every key is spelled as `shape` names it or names nothing in it; false
 * for one the schema would first re-spell (case folding) or that is not a plain object.
 */
function isPlainWith(input: unknown, shape: Fields): input is Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Object.getPrototypeOf(input) !== Object.prototype) return false;
  for (const key in input) {
    if (shape.exact.has(key)) continue;
    if (key === '__proto__' || shape.folded.has(key.toLowerCase())) return false;
  }
  return true;
}

/** An enum the schema reads from its number; names and numeric strings are left to the schema. */
function readEnum(names: readonly string[], value: unknown): Read<number> {
  return typeof value === 'number' ? (enumIndex(names, value) ?? DECLINED) : DECLINED;
}

/** `z.string().default('')`. */
function readRequestId(value: unknown): Read<string> {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : DECLINED;
}

/** `errorKindSchema.nullish().transform(v => v ?? None)`. */
function readErrorKind(value: unknown): Read<number> {
  return value === undefined || value === null ? ResponseErrorKind.None : readEnum(ERROR_KIND_NAMES, value);
}

/** The `nullish().transform(v => v ?? undefined)` fields: undefined for null, the value when `accepts` it. */
function readOptional<T>(value: unknown, accepts: (v: unknown) => v is T): Read<T | undefined> {
  if (value === undefined || value === null) return undefined;
  return accepts(value) ? value : DECLINED;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isSafeInteger = (v: unknown): v is number => Number.isSafeInteger(v);
const isNullishString = (v: unknown): v is string | null | undefined => v === undefined || v === null || typeof v === 'string';

/**
 * Sets an optional field as zod's object does: a result of undefined only when the input named the key.
 * Called in the schema's field order, so the output's key order is the schema's too.
 */
function put(out: Record<string, unknown>, input: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined || key in input) out[key] = value;
}

/** A content block with a string `type`, nullish text fields and no embedded resource; other keys pass through after the named ones. */
function readBlock(input: unknown): Read<ContentBlock> {
  if (!isPlainWith(input, BLOCK) || typeof input['type'] !== 'string') return DECLINED;
  const { text, data, mimeType, resource } = input;
  if (!isNullishString(text) || !isNullishString(data) || !isNullishString(mimeType) || (resource !== undefined && resource !== null)) return DECLINED;
  // A block whose keys already come in the order the copy below gives them is that copy: it is taken as
  // it is, so what is known of its values (a screenshot's bytes, shared/json-text.ts) stays with them.
  if (inBlockOrder(input)) return input as ContentBlock;
  const out: Record<string, unknown> = { type: input['type'] };
  put(out, input, 'text', text);
  put(out, input, 'data', data);
  put(out, input, 'mimeType', mimeType);
  put(out, input, 'resource', resource);
  for (const key in input) if (!BLOCK.exact.has(key)) out[key] = input[key];
  return out as ContentBlock;
}

const BLOCK_ORDER = ['type', 'text', 'data', 'mimeType', 'resource'];

/** `type` first, then the named fields present in the schema's order, then any others. */
function inBlockOrder(input: Record<string, unknown>): boolean {
  let named = 0;
  let others = false;
  for (const key in input) {
    const at = BLOCK_ORDER.indexOf(key);
    if (at === -1) others = true;
    else if (others || at < named || (named === 0 && at !== 0)) return false;
    else named = at + 1;
  }
  return named > 0;
}

function readContent(value: unknown): Read<ContentBlock[]> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return DECLINED;
  const blocks: ContentBlock[] = [];
  for (const item of value as unknown[]) {
    const block = readBlock(item);
    if (block === DECLINED) return DECLINED;
    blocks.push(block);
  }
  return blocks;
}

/** `ResponseCallToolSchema` for the well-formed shape. */
function readCallTool(input: unknown): Read<ResponseCallTool> {
  if (!isPlainWith(input, CALL_TOOL)) return DECLINED;
  const requestId = readRequestId(input['requestId']);
  const status = input['status'] === undefined ? ResponseStatus.Error : readEnum(STATUS_NAMES, input['status']);
  const content = readContent(input['content']);
  const errorKind = readErrorKind(input['errorKind']);
  const httpStatusCode = readOptional(input['httpStatusCode'], isSafeInteger);
  const notExecuted = readOptional(input['notExecuted'], isBoolean);
  if (requestId === DECLINED || status === DECLINED || content === DECLINED || errorKind === DECLINED || httpStatusCode === DECLINED || notExecuted === DECLINED) return DECLINED;
  const out: Record<string, unknown> = { requestId, status, content };
  put(out, input, 'structuredContent', input['structuredContent']);
  out['errorKind'] = errorKind;
  put(out, input, 'httpStatusCode', httpStatusCode);
  put(out, input, 'notExecuted', notExecuted);
  return out as ResponseCallTool;
}

/**
 * `ResponseCallToolDataSchema` for the well-formed envelope that carries a `value`; undefined for
 * anything the schema must read (including every reply it would refuse).
 */
export function readWellFormedReply(input: unknown): CallToolData | undefined {
  if (!isPlainWith(input, ENVELOPE) || !('value' in input)) return undefined;
  const requestId = readRequestId(input['requestId']);
  const status = readEnum(STATUS_NAMES, input['status']);
  const message = readOptional(input['message'], isString);
  const errorKind = readErrorKind(input['errorKind']);
  const httpStatusCode = readOptional(input['httpStatusCode'], isSafeInteger);
  const raw = input['value'];
  const value = raw === undefined || raw === null ? raw : readCallTool(raw);
  if (requestId === DECLINED || status === DECLINED || message === DECLINED || errorKind === DECLINED || httpStatusCode === DECLINED || value === DECLINED) return undefined;
  const out: Record<string, unknown> = { requestId, status };
  put(out, input, 'message', message);
  out['errorKind'] = errorKind;
  put(out, input, 'httpStatusCode', httpStatusCode);
  put(out, input, 'value', value);
  return out as CallToolData;
}

/** A zod refusal as one line: each issue's path and message. */
export function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '$'}: ${i.message}`).join('; ');
}

function hasProperty(raw: object, name: string): boolean {
  return Object.keys(raw).some((key) => key.toLowerCase() === name);
}

/**
 * The plugin's answer to RunCallTool: the spec's ResponseData envelope, or a bare ResponseCallTool
 * from a lenient peer. No answer at all is `noAnswer` (McpPlugin.Server answers 502 for it).
 */
export function parseCallReply(raw: unknown): PluginReply {
  if (raw === null || raw === undefined) throw new InvokeFailure('noAnswer', 'The plugin returned no result.');
  const wellFormed = readWellFormedReply(raw);
  if (wellFormed) return replyFromEnvelope(wellFormed);
  const bare = typeof raw === 'object' && !hasProperty(raw, 'value') && hasProperty(raw, 'content');
  if (bare) {
    const parsed = ResponseCallToolSchema.safeParse(raw);
    if (!parsed.success) throw new InvokeFailure('protocol', issuesText(parsed.error));
    const value = parsed.data;
    return replyFromEnvelope({ requestId: value.requestId, status: value.status, errorKind: value.errorKind, httpStatusCode: value.httpStatusCode, message: undefined, value });
  }
  const parsed = ResponseCallToolDataSchema.safeParse(raw);
  if (!parsed.success) throw new InvokeFailure('protocol', issuesText(parsed.error));
  return replyFromEnvelope(parsed.data);
}
