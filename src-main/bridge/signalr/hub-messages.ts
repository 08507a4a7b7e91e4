/**
 * The JSON hub protocol (version 1) as data: zod schemas for what a client may send, constructors
 * for what the server sends. Pure: no I/O, no timers.
 */
import { z } from 'zod';
import { parseJsonBytes } from '../../shared/index.js';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const;

export const SUPPORTED_PROTOCOL = 'json';
export const SUPPORTED_PROTOCOL_VERSION = 1;

const headers = z.record(z.string(), z.string()).optional();
const invocationId = z.string().min(1);
const streamIds = z.array(z.string()).optional();

const invocationSchema = z.object({
  type: z.literal(MessageType.Invocation),
  invocationId: invocationId.optional(),
  target: z.string().min(1),
  arguments: z.array(z.unknown()),
  streamIds,
  headers,
});

const streamInvocationSchema = z.object({
  type: z.literal(MessageType.StreamInvocation),
  invocationId,
  target: z.string().min(1),
  arguments: z.array(z.unknown()),
  streamIds,
  headers,
});

const streamItemSchema = z.object({
  type: z.literal(MessageType.StreamItem),
  invocationId,
  item: z.unknown(),
  headers,
});

const completionSchema = z.object({
  type: z.literal(MessageType.Completion),
  invocationId,
  result: z.unknown().optional(),
  error: z.string().optional(),
  headers,
});

const cancelInvocationSchema = z.object({ type: z.literal(MessageType.CancelInvocation), invocationId, headers });
const pingSchema = z.object({ type: z.literal(MessageType.Ping) });
const closeSchema = z.object({ type: z.literal(MessageType.Close), error: z.string().optional(), allowReconnect: z.boolean().optional() });

const clientMessageSchema = z.discriminatedUnion('type', [
  invocationSchema,
  streamInvocationSchema,
  streamItemSchema,
  completionSchema,
  cancelInvocationSchema,
  pingSchema,
  closeSchema,
]);

export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type InvocationMessage = z.infer<typeof invocationSchema>;
export type StreamInvocationMessage = z.infer<typeof streamInvocationSchema>;
export type CompletionMessage = z.infer<typeof completionSchema>;

const handshakeRequestSchema = z.object({ protocol: z.string(), version: z.number().int() });

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** UTF-8's byte order mark, which the hub's text decoder drops from the start of a record. */
const BOM = [0xef, 0xbb, 0xbf];

/** A record's JSON, from its text or (a large record) its bytes, read as if decoded to text first. */
function parseJson(record: string | Buffer): Parsed<unknown> {
  try {
    if (typeof record === 'string') return { ok: true, value: JSON.parse(record) as unknown };
    const bom = BOM.every((byte, i) => record[i] === byte);
    return { ok: true, value: parseJsonBytes(record, bom ? BOM.length : 0) };
  } catch {
    return { ok: false, error: 'message is not valid JSON' };
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `'${issue.path.join('.')}': ${issue.message}` : issue.message))
    .join('; ');
}

const KNOWN_TYPES = new Set<unknown>(Object.values(MessageType));

/** Optional fields a client may send as null; ASP.NET Core reads null as absent, and so do we. */
const NULLABLE_OPTIONAL_FIELDS = ['invocationId', 'streamIds', 'headers', 'error', 'allowReconnect'] as const;

function withoutNullOptionals(raw: object, type: unknown): object {
  const copy: Record<string, unknown> = { ...raw };
  for (const field of NULLABLE_OPTIONAL_FIELDS) {
    // Only an Invocation may omit its id; elsewhere a null id stays null and fails validation.
    if (field === 'invocationId' && type !== MessageType.Invocation) continue;
    if (copy[field] === null) delete copy[field];
  }
  return copy;
}

const COMPLETION_KEYS = new Set(['type', 'invocationId', 'result', 'error']);

/**
 * The message every call's answer arrives in, a Completion, read without the schema when it holds only
 * the fields the schema names, well typed: exactly what the schema would yield (key order included), so
 * the schema, which costs a share of every bridged call, reads only the other messages and every refusal.
 */
export function readPlainCompletion(raw: object): CompletionMessage | undefined {
  const fields = raw as Record<string, unknown>;
  if (fields['type'] !== MessageType.Completion || Object.getPrototypeOf(raw) !== Object.prototype) return undefined;
  for (const key in fields) if (!COMPLETION_KEYS.has(key)) return undefined;
  const id = fields['invocationId'];
  const error = fields['error'];
  if (typeof id !== 'string' || id === '' || (error !== undefined && error !== null && typeof error !== 'string')) return undefined;
  const message: CompletionMessage = { type: MessageType.Completion, invocationId: id };
  if ('result' in fields) message.result = fields['result'];
  if (typeof error === 'string') message.error = error;
  return message;
}

/** Parses one record received after the handshake. Failures are protocol errors that end the connection. */
export function parseClientMessage(record: string | Buffer): Parsed<ClientMessage> {
  const json = parseJson(record);
  if (!json.ok) return json;
  const raw = json.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: 'message is not a JSON object' };
  const completion = readPlainCompletion(raw);
  if (completion) return { ok: true, value: completion };
  const type = (raw as { type?: unknown }).type;
  if (!KNOWN_TYPES.has(type)) return { ok: false, error: `unknown message type ${JSON.stringify(type) ?? 'undefined'}` };
  const parsed = clientMessageSchema.safeParse(withoutNullOptionals(raw, type));
  if (!parsed.success) return { ok: false, error: `invalid message of type ${String(type)}: ${describeIssues(parsed.error)}` };
  return { ok: true, value: parsed.data };
}

/** Parses and checks the handshake request; the error text is what the client sees in the handshake response. */
export function parseHandshakeRequest(text: string): Parsed<{ protocol: string; version: number }> {
  const json = parseJson(text);
  if (!json.ok) return { ok: false, error: 'Handshake request is not valid JSON.' };
  const parsed = handshakeRequestSchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, error: `Invalid handshake request: ${describeIssues(parsed.error)}.` };
  const { protocol, version } = parsed.data;
  if (protocol !== SUPPORTED_PROTOCOL) return { ok: false, error: `The protocol '${protocol}' is not supported; this server speaks '${SUPPORTED_PROTOCOL}' only.` };
  if (version !== SUPPORTED_PROTOCOL_VERSION) {
    return { ok: false, error: `The server does not support version ${version} of the '${protocol}' protocol; it supports version ${SUPPORTED_PROTOCOL_VERSION}.` };
  }
  return { ok: true, value: parsed.data };
}

export const handshakeResponse = (error?: string): { error?: string } => (error === undefined ? {} : { error });

export const pingMessage = { type: MessageType.Ping } as const;

export function closeMessage(error: string | undefined, allowReconnect: boolean): { type: 7; error?: string; allowReconnect: boolean } {
  return error === undefined ? { type: MessageType.Close, allowReconnect } : { type: MessageType.Close, error, allowReconnect };
}

export function invocationMessage(target: string, args: unknown[], id?: string): Record<string, unknown> {
  return id === undefined ? { type: MessageType.Invocation, target, arguments: args } : { type: MessageType.Invocation, invocationId: id, target, arguments: args };
}

export function completionResult(id: string, result: unknown): Record<string, unknown> {
  return result === undefined ? { type: MessageType.Completion, invocationId: id } : { type: MessageType.Completion, invocationId: id, result };
}

export function completionError(id: string, error: string): Record<string, unknown> {
  return { type: MessageType.Completion, invocationId: id, error };
}

export function streamItemMessage(id: string, item: unknown): Record<string, unknown> {
  return { type: MessageType.StreamItem, invocationId: id, item };
}
