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

/** One stored column's value. */
type RowValue = string | number | null;

export type RowParams = Record<string, RowValue>;

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

/**
 * A call's stored values in `CALL_FIELDS` order, as one array literal: reading them off a keyed object
 * (`params[key]` for each field) costs V8 a megamorphic lookup apiece, which made the row text twice as
 * dear (1.7 against 1.0 µs a call, on the agents' event loop). The unit test of rows checks this order
 * against `CALL_FIELDS` field by field.
 */
function rowValues(call: CallView, values: StoredValues, decidedBy: string | null, replayOf: string | null): RowValue[] {
  return [
    call.callId,
    call.startedAt,
    call.agent,
    call.transport,
    call.tool,
    call.target,
    call.status,
    call.errorCode ?? null,
    call.durationMs ?? null,
    call.requestBytes,
    call.responseBytes ?? null,
    values.args.json,
    values.result?.json ?? null,
    values.redacted.length > 0 ? JSON.stringify(values.redacted) : null,
    values.args.truncated || values.result?.truncated ? 1 : 0,
    values.policy,
    decidedBy,
    replayOf,
    call.traceparent ?? null,
  ];
}

/** A call's stored values in `CALL_FIELDS` order: redacted, previews capped. */
function callValues(input: AuditCallInput, options: RowOptions): RowValue[] {
  const json = redactCallJson(input.json, options.rules);
  const args = cappedJsonText(json.value.arguments, options.previewBytes);
  const result = json.value.result === undefined ? undefined : cappedJsonText(json.value.result, options.previewBytes);
  return rowValues(input.call, { args, result, policy: policyJson(input.policy, options), redacted: json.paths }, input.decidedBy, input.replayOf ?? null);
}

/** Values in `CALL_FIELDS` order by their fields' names (the spill file's form). */
const paramsOf = (values: readonly RowValue[]): RowParams => Object.fromEntries(CALL_FIELDS.map(([, key], i) => [key, values[i] ?? null]));

/** A call's stored columns by name: redacted, previews capped. */
export function callParams(input: AuditCallInput, options: RowOptions): RowParams {
  return paramsOf(callValues(input, options));
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
const callRow = (params: RowParams): string => JSON.stringify(CALL_FIELDS.map(([, key]) => params[key] ?? null));

export function storedCall(input: AuditCallInput, options: RowOptions): StoredRecord {
  return { type: 'call', row: JSON.stringify(callValues(input, options)) };
}

/** A record in the spill file's form, and back. */
export function preparedRecord(record: StoredRecord): PreparedRecord {
  if (record.type === 'event') return record;
  return { type: 'call', params: paramsOf(JSON.parse(record.row) as RowValue[]) };
}

export function storedRecord(record: PreparedRecord): StoredRecord {
  return record.type === 'call' ? { type: 'call', row: callRow(record.params) } : { type: 'event', params: record.params };
}
