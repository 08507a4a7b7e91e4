/**
 * A record as the database stores it: redacted, then cut to bounded previews (pure). The writer does
 * this in its thread; the store does it itself for records it must hold while the writer is away, so
 * a backlog never keeps a call's full arguments and result alive.
 */
import type { CallView } from '../contracts/index.js';
import type { AuditCallInput, AuditEventInput } from './records.js';
import { redactCall, redactValue, type RedactionRules } from './redact.js';
import { cappedJson, cappedJsonText, type CappedJson } from '../shared/index.js';

export type RowParams = Record<string, string | number | null>;

/** A call's values as JSON text, as the writer reads them from a serialised call (`serializeCall`). */
interface SerializedCall {
  call: CallView;
  arguments: string;
  /** Null when the call has no result. */
  result: string | null;
  policy: string | null;
  decidedBy: string | null;
  replayOf: string | null;
}

/** One record for the trail: as recorded (redacted by the writer), serialised for the writer thread, or already prepared. */
export type AuditRecord =
  | { type: 'call'; input: AuditCallInput }
  | { type: 'call'; json: string }
  | { type: 'event'; input: AuditEventInput }
  | { type: 'call' | 'event'; params: RowParams };

export interface RowOptions {
  rules: RedactionRules;
  /** Largest stored JSON text for arguments, a result or an event payload; longer values keep a text preview. */
  previewBytes: number;
}

interface StoredValues {
  args: CappedJson;
  result: CappedJson | undefined;
  policy: string | null;
  redacted: string[];
}

function row(call: CallView, values: StoredValues, decidedBy: string | null, replayOf: string | null): RowParams {
  return {
    callId: call.callId,
    startedAt: call.startedAt,
    agent: call.agent,
    transport: call.transport,
    tool: call.tool,
    target: call.target,
    status: call.status,
    errorCode: call.errorCode ?? null,
    durationMs: call.durationMs ?? null,
    requestBytes: call.requestBytes,
    responseBytes: call.responseBytes ?? null,
    arguments: values.args.json,
    result: values.result?.json ?? null,
    redacted: values.redacted.length > 0 ? JSON.stringify(values.redacted) : null,
    truncated: values.args.truncated || values.result?.truncated ? 1 : 0,
    policy: values.policy,
    decidedBy,
    replayOf,
  };
}

function callParams(input: AuditCallInput, options: RowOptions): RowParams {
  const redacted = redactCall({ arguments: input.arguments, result: input.result }, options.rules);
  const args = cappedJson(redacted.value.arguments, options.previewBytes);
  const result = input.result === undefined ? undefined : cappedJson(redacted.value.result, options.previewBytes);
  const policy = input.policy === null || input.policy === undefined ? null : cappedJson(redactValue(input.policy, options.rules).value, options.previewBytes).json;
  return row(input.call, { args, result, policy, redacted: redacted.paths }, input.decidedBy, input.replayOf ?? null);
}

/**
 * Redaction can change a call only through a configured pointer or pattern, or a key named like a secret.
 * Such a key is in the JSON text verbatim (JSON escapes no letter, `-` or `_`, all the secret-key pattern
 * is made of), so when no rule is configured and the text nowhere matches that pattern, the redacted
 * value serialises to exactly this text, which is stored as it is. Otherwise the call is parsed and
 * redacted like any other.
 */
function serializedParams(json: SerializedCall, options: RowOptions): RowParams {
  const { rules } = options;
  const texts = [json.arguments, json.result, json.policy];
  const untouched = rules.pointers.length === 0 && rules.patterns.length === 0 && texts.every((text) => text === null || !rules.secretKey.test(text));
  if (!untouched) {
    const parse = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));
    const input: AuditCallInput = { call: json.call, arguments: parse(json.arguments), result: parse(json.result), policy: parse(json.policy) ?? null, decidedBy: json.decidedBy };
    return callParams(json.replayOf === null ? input : { ...input, replayOf: json.replayOf }, options);
  }
  const capped = (text: string | null) => (text === null ? undefined : cappedJsonText(text, options.previewBytes));
  return row(json.call, { args: capped(json.arguments)!, result: capped(json.result), policy: capped(json.policy)?.json ?? null, redacted: [] }, json.decidedBy, json.replayOf);
}

/**
 * The call as one string for the writer thread: the call's fields, arguments, result and policy as JSON
 * lines. A string crosses to the thread as one copy, where an object graph is serialised and rebuilt
 * field by field (about ten µs a call on the store's thread); and the writer stores most calls' JSON as
 * it is (see `serializedParams`) without parsing it. JSON.stringify writes no line break, so lines frame
 * the parts; an empty line, never JSON, is an absent result or policy. Throws when a value has no JSON
 * (a cycle, a BigInt).
 */
export function serializeCall(input: AuditCallInput): string {
  const meta = JSON.stringify({ call: input.call, decidedBy: input.decidedBy, replayOf: input.replayOf ?? null });
  // As `cappedJson` stores them: a value without JSON of its own (undefined, a function) is `null`.
  const args = JSON.stringify(input.arguments) ?? 'null';
  const result = input.result === undefined ? '' : (JSON.stringify(input.result) ?? 'null');
  const policy = input.policy === null || input.policy === undefined ? '' : (JSON.stringify(input.policy) ?? 'null');
  return `${meta}\n${args}\n${result}\n${policy}`;
}

function deserializeCall(text: string): SerializedCall {
  const [meta = '', args = 'null', result = '', policy = ''] = text.split('\n');
  const { call, decidedBy, replayOf } = JSON.parse(meta) as Pick<SerializedCall, 'call' | 'decidedBy' | 'replayOf'>;
  return { call, decidedBy, replayOf, arguments: args, result: result === '' ? null : result, policy: policy === '' ? null : policy };
}

function eventParams(input: AuditEventInput, options: RowOptions): RowParams {
  // Event payloads hold diffs: give them more room than call previews, still bounded.
  const data = cappedJson(redactValue(input.data, options.rules).value, options.previewBytes * 16);
  return { at: input.at, kind: input.kind, workspaceId: input.workspaceId ?? null, transactionId: input.transactionId ?? null, data: data.json };
}

export function rowParams(record: AuditRecord, options: RowOptions): RowParams {
  if ('params' in record) return record.params;
  if ('json' in record) return serializedParams(deserializeCall(record.json), options);
  return record.type === 'call' ? callParams(record.input, options) : eventParams(record.input, options);
}

/** The record in its stored form, keeping nothing of the original values. */
export function prepared(record: AuditRecord, options: RowOptions): AuditRecord {
  return 'params' in record ? record : { type: record.type, params: rowParams(record, options) };
}
