/**
 * A record as the database stores it: redacted, then cut to bounded previews (pure). The writer does
 * this in its thread; the store does it itself for records it must hold while the writer is away, so
 * a backlog never keeps a call's full arguments and result alive.
 */
import type { AuditCallInput, AuditEventInput } from './records.js';
import { redactCall, redactValue, type RedactionRules } from './redact.js';
import { cappedJson } from '../shared/index.js';

export type RowParams = Record<string, string | number | null>;

/** One record for the trail: as recorded (redacted by the writer) or already prepared. */
export type AuditRecord = { type: 'call'; input: AuditCallInput } | { type: 'event'; input: AuditEventInput } | { type: 'call' | 'event'; params: RowParams };

export interface RowOptions {
  rules: RedactionRules;
  /** Largest stored JSON text for arguments, a result or an event payload; longer values keep a text preview. */
  previewBytes: number;
}

function callParams(input: AuditCallInput, options: RowOptions): RowParams {
  const { call } = input;
  const redacted = redactCall({ arguments: input.arguments, result: input.result }, options.rules);
  const args = cappedJson(redacted.value.arguments, options.previewBytes);
  const result = input.result === undefined ? undefined : cappedJson(redacted.value.result, options.previewBytes);
  const policy = input.policy === null || input.policy === undefined ? null : cappedJson(redactValue(input.policy, options.rules).value, options.previewBytes).json;
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
    arguments: args.json,
    result: result?.json ?? null,
    redacted: redacted.paths.length > 0 ? JSON.stringify(redacted.paths) : null,
    truncated: args.truncated || result?.truncated ? 1 : 0,
    policy,
    decidedBy: input.decidedBy,
    replayOf: input.replayOf ?? null,
  };
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
export function prepared(record: AuditRecord, options: RowOptions): AuditRecord {
  return 'params' in record ? record : { type: record.type, params: rowParams(record, options) };
}
