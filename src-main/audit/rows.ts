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

/** One record for the trail: as recorded (redacted by the writer) or already prepared. */
export type AuditRecord = { type: 'call'; input: AuditCallInput } | { type: 'event'; input: AuditEventInput } | { type: 'call' | 'event'; params: RowParams };

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
  const texts = unredactedJson(input, options.rules);
  if (texts) {
    const capped = (text: string | null) => (text === null ? undefined : cappedJsonText(text, options.previewBytes));
    return row(input.call, { args: capped(texts.args)!, result: capped(texts.result), policy: capped(texts.policy)?.json ?? null, redacted: [] }, input.decidedBy, input.replayOf ?? null);
  }
  const redacted = redactCall({ arguments: input.arguments, result: input.result }, options.rules);
  const args = cappedJson(redacted.value.arguments, options.previewBytes);
  const result = input.result === undefined ? undefined : cappedJson(redacted.value.result, options.previewBytes);
  const policy = input.policy === null || input.policy === undefined ? null : cappedJson(redactValue(input.policy, options.rules).value, options.previewBytes).json;
  return row(input.call, { args, result, policy, redacted: redacted.paths }, input.decidedBy, input.replayOf ?? null);
}

/**
 * The call's values as JSON text when redaction cannot change them; undefined when it might (or a value
 * has no JSON), and the call goes through the redactor. Redaction changes a call only through a
 * configured pointer or pattern, or a key named like a secret; such a key is in the JSON text verbatim
 * (JSON escapes no letter, `-` or `_`, all the secret-key pattern is made of). So when no rule is
 * configured and the text nowhere matches that pattern, the redacted value serialises to exactly this
 * text, and the walk that copies every value is skipped: most calls carry no secret-like key.
 */
function unredactedJson(input: AuditCallInput, rules: RedactionRules): { args: string; result: string | null; policy: string | null } | undefined {
  if (rules.pointers.length > 0 || rules.patterns.length > 0) return undefined;
  let texts: { args: string; result: string | null; policy: string | null };
  try {
    // As `cappedJson` stores them: a value without JSON of its own (undefined, a function) is `null`.
    texts = {
      args: JSON.stringify(input.arguments) ?? 'null',
      result: input.result === undefined ? null : (JSON.stringify(input.result) ?? 'null'),
      policy: input.policy === null || input.policy === undefined ? null : (JSON.stringify(input.policy) ?? 'null'),
    };
  } catch {
    return undefined;
  }
  return [texts.args, texts.result, texts.policy].some((text) => text !== null && rules.secretKey.test(text)) ? undefined : texts;
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
