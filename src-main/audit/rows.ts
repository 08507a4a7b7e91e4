/**
 * A record as the database stores it: redacted, then cut to bounded previews (pure). The store does this
 * as a record is queued, on the recording thread: a queue then never holds a call's full arguments and
 * result, and the writer thread receives a batch's calls as one JSON text of rows, which it binds in one
 * statement, instead of cloned objects to convert one by one.
 */
import type { CallView } from '../contracts/index.js';
import { CALL_FIELDS } from './database.js';
import type { AuditCallInput, AuditEventInput } from './records.js';
import { mayRedact, redactCallJson, redactValue, type RedactionRules } from './redact.js';
import { cappedJson, cappedJsonText, jsonText, type CappedJson } from '../shared/index.js';

export type RowParams = Record<string, string | number | null>;

/** A record in the spill file's form: its columns by name (see spill.ts). */
export interface PreparedRecord {
  type: 'call' | 'event';
  params: RowParams;
}

/**
 * A record in stored form, as the store queues it: a call as the JSON text of its values in `CALL_FIELDS`
 * order (`["call-1",1700000000000,"cursor",…]`), an event by its columns' names.
 */
export type StoredRecord = { type: 'call'; row: string } | { type: 'event'; params: RowParams };

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
    traceparent: call.traceparent ?? null,
  };
}

/** A call's stored columns by name: redacted, previews capped. */
export function callParams(input: AuditCallInput, options: RowOptions): RowParams {
  const json = redactCallJson(input.json, options.rules);
  const args = cappedJsonText(json.value.arguments, options.previewBytes);
  const result = json.value.result === undefined ? undefined : cappedJsonText(json.value.result, options.previewBytes);
  return row(input.call, { args, result, policy: policyJson(input.policy, options), redacted: json.paths }, input.decidedBy, input.replayOf ?? null);
}

function policyJson(policy: unknown, options: RowOptions): string | null {
  if (policy === null || policy === undefined) return null;
  const text = jsonText(policy);
  const redacted = mayRedact(options.rules, text) ? jsonText(redactValue(policy, options.rules).value) : text;
  return cappedJsonText(redacted, options.previewBytes).json;
}

export function eventParams(input: AuditEventInput, options: RowOptions): RowParams {
  // Event payloads hold diffs: give them more room than call previews, still bounded.
  const data = cappedJson(redactValue(input.data, options.rules).value, options.previewBytes * 16);
  return { at: input.at, kind: input.kind, workspaceId: input.workspaceId ?? null, transactionId: input.transactionId ?? null, data: data.json };
}

/** A call's stored columns as the JSON text of its row (see `StoredRecord`). */
export const callRow = (params: RowParams): string => JSON.stringify(CALL_FIELDS.map(([, key]) => params[key] ?? null));

export function storedCall(input: AuditCallInput, options: RowOptions): StoredRecord {
  return { type: 'call', row: callRow(callParams(input, options)) };
}

/** A record in the spill file's form, and back. */
export function preparedRecord(record: StoredRecord): PreparedRecord {
  if (record.type === 'event') return record;
  const values = JSON.parse(record.row) as Array<string | number | null>;
  return { type: 'call', params: Object.fromEntries(CALL_FIELDS.map(([, key], i) => [key, values[i] ?? null])) };
}

export function storedRecord(record: PreparedRecord): StoredRecord {
  return record.type === 'call' ? { type: 'call', row: callRow(record.params) } : { type: 'event', params: record.params };
}
