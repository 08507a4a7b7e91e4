/**
 * A record as the database stores it: redacted, then cut to bounded previews (pure). The writer does
 * this in its thread; the store does it itself for records it must hold while the writer is away, so
 * a backlog never keeps a call's full arguments and result alive.
 */
import type { CallView } from '../contracts/index.js';
import type { AuditCallInput, AuditEventInput } from './records.js';
import { mayRedact, redactCallJson, redactValue, type RedactionRules } from './redact.js';
import { cappedJson, cappedJsonText, jsonText, type CappedJson } from '../shared/index.js';

export type RowParams = Record<string, string | number | null>;

/** A record in the form the database stores it: redacted and cut to its previews. */
export interface PreparedRecord {
  type: 'call' | 'event';
  params: RowParams;
}

/** One record for the trail: as recorded (redacted by the writer) or already prepared. */
export type AuditRecord = { type: 'call'; input: AuditCallInput } | { type: 'event'; input: AuditEventInput } | PreparedRecord;

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

function callParams(input: AuditCallInput, options: RowOptions): RowParams {
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

function eventParams(input: AuditEventInput, options: RowOptions): RowParams {
  // Event payloads hold diffs: give them more room than call previews, still bounded.
  const data = cappedJson(redactValue(input.data, options.rules).value, options.previewBytes * 16);
  return { at: input.at, kind: input.kind, workspaceId: input.workspaceId ?? null, transactionId: input.transactionId ?? null, data: data.json };
}

export function rowParams(record: AuditRecord, options: RowOptions): RowParams {
  if ('params' in record) return record.params;
  return record.type === 'call' ? callParams(record.input, options) : eventParams(record.input, options);
}

/** The record in its stored form, keeping nothing of the original values. */
export function prepared(record: AuditRecord, options: RowOptions): PreparedRecord {
  return 'params' in record ? record : { type: record.type, params: rowParams(record, options) };
}
