/**
 * Most calls are stored as their JSON text without the redactor's walk: the stored row must be exactly
 * what redacting the call and then capping its previews gives, secrets, rules and caps included.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRedaction, redactCall, redactValue, type AuditCallInput, type RedactionRules } from '../../../src-main/audit/index.js';
import { callParams } from '../../../src-main/audit/rows.js';
import { CALL_FIELDS } from '../../../src-main/audit/database.js';
import type { JsonText } from '../../../src-main/contracts/index.js';
import { cappedJson, flatText } from '../../../src-main/shared/index.js';
import { callJson } from '../../support/audit-store.js';

const T0 = 1_700_000_000_000;

function call(args: unknown, result: unknown, extra: Partial<AuditCallInput> = {}): AuditCallInput {
  return {
    call: { callId: 'c-1', agent: 'cursor', transport: 'mcp-http', tool: 'document-read', target: 'host', status: 'ok', startedAt: T0, durationMs: 2, requestBytes: 10, responseBytes: 20 },
    json: callJson(args, result),
    policy: null,
    decidedBy: null,
    ...extra,
  };
}

const secret = 'sk-live-0123456789';
const CALLS: Array<[string, AuditCallInput]> = [
  ['plain arguments and result', call({ path: 'src/a.ts', limit: 5, nested: [1, { b: null }] }, { content: [{ type: 'text', text: '{"items":[]}' }], structuredContent: { items: [] } })],
  ['no result', call({ path: 'x' }, undefined)],
  ['undefined arguments', call(undefined, { ok: true })],
  ['a secret key in the arguments, its value copied into the result', call({ user: 'ada', password: secret }, { content: [{ type: 'text', text: `logged in with ${secret}` }] })],
  ['a secret inside JSON text of the result', call({}, { content: [{ type: 'text', text: JSON.stringify({ accessToken: secret }) }], structuredContent: { accessToken: secret } })],
  ['a word like a secret key in a value only', call({ query: 'rotate the api-key docs' }, { content: [] })],
  ['a policy decision and a replay', call({ a: 1 }, { b: 2 }, { policy: { action: 'ask', ruleIndex: 0, reason: 'remove-*', decidedBy: 'operator' }, decidedBy: 'operator', replayOf: 'c-0' })],
  ['a value larger than the preview', call({ blob: 'é'.repeat(5000) }, { text: 'x'.repeat(9000) })],
  ['line breaks and JSON-looking text in values', call({ text: 'a\nb\r\n\u2028c', json: '{"x":1}\n' }, { content: [{ type: 'text', text: '\n\n' }] })],
];

/** The stored previews by definition: the redactor's output, capped. */
function redactedThenCapped(input: AuditCallInput, rules: RedactionRules, previewBytes: number) {
  const parsed = (text: JsonText | undefined): unknown => (text === undefined ? undefined : JSON.parse(flatText(text)));
  const { value, paths } = redactCall({ arguments: parsed(input.json.arguments), result: parsed(input.json.result) }, rules);
  const args = cappedJson(value.arguments, previewBytes);
  const result = input.json.result === undefined ? undefined : cappedJson(value.result, previewBytes);
  return {
    arguments: args.json,
    result: result?.json ?? null,
    redacted: paths.length > 0 ? JSON.stringify(paths) : null,
    truncated: args.truncated || result?.truncated ? 1 : 0,
    policy: input.policy === null ? null : cappedJson(redactValue(input.policy, rules).value, previewBytes).json,
  };
}

describe('a call stored as a row', () => {
  for (const rules of [compileRedaction([]), compileRedaction(['/arguments/path', 're:sk-[a-z]+'])]) {
    test(`holds exactly the redacted, capped previews (${rules.pointers.length + rules.patterns.length} configured rules)`, () => {
      const previewBytes = 4096;
      for (const [name, input] of CALLS) {
        const { arguments: args, result, redacted, truncated, policy } = callParams(input, { rules, previewBytes });
        assert.deepEqual({ arguments: args, result, redacted, truncated, policy }, redactedThenCapped(input, rules, previewBytes), name);
      }
    });
  }

  test('a secret never survives the path that stores JSON text without the redactor', () => {
    const stored = callParams(call({ headers: { Authorization: `Bearer ${secret}` } }, { echoed: `Bearer ${secret}` }), { rules: compileRedaction([]), previewBytes: 4096 });
    assert.ok(!JSON.stringify(stored).includes(secret));
    assert.deepEqual(JSON.parse(stored.redacted as string), ['/arguments/headers/Authorization']);
  });

  test('a value without JSON is stored as its string form', () => {
    const stored = callParams(call({ n: 1n }, undefined), { rules: compileRedaction([]), previewBytes: 4096 });
    assert.equal(stored.arguments, JSON.stringify('[object Object]'));
  });

  test('each value is stored under its own column', () => {
    // Every field set, each to a value no other field holds, so a value in another column's place shows.
    const input = call({ password: secret, text: 'x'.repeat(200) }, { ok: true }, { policy: { action: 'ask', reason: 'held' }, decidedBy: 'operator', replayOf: 'c-0' });
    Object.assign(input.call, { status: 'error', errorCode: 'ToolFailed', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    const stored = callParams(input, { rules: compileRedaction([]), previewBytes: 64 });
    const { call: view } = input;
    const expected: Record<string, unknown> = {
      callId: view.callId,
      startedAt: view.startedAt,
      agent: view.agent,
      transport: view.transport,
      tool: view.tool,
      target: view.target,
      status: view.status,
      errorCode: view.errorCode,
      durationMs: view.durationMs,
      requestBytes: view.requestBytes,
      responseBytes: view.responseBytes,
      arguments: cappedJson(redactValue({ password: secret, text: 'x'.repeat(200) }, compileRedaction([])).value, 64).json,
      result: '{"ok":true}',
      redacted: JSON.stringify(['/arguments/password']),
      truncated: 1,
      policy: '{"action":"ask","reason":"held"}',
      decidedBy: 'operator',
      replayOf: 'c-0',
      traceparent: view.traceparent,
    };
    assert.deepEqual(Object.keys(expected).sort(), CALL_FIELDS.map(([, key]) => key).sort(), 'every column is checked');
    assert.deepEqual(stored, expected);
  });
});
