/**
 * A call crosses to the writer thread as JSON text and most calls are stored without being parsed again:
 * the stored row must be exactly the row redacting the call itself gives, secrets, rules and caps included.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRedaction, type AuditCallInput } from '../../../src-main/audit/index.js';
import { rowParams, serializeCall } from '../../../src-main/audit/rows.js';

const T0 = 1_700_000_000_000;

function call(args: unknown, result: unknown, extra: Partial<AuditCallInput> = {}): AuditCallInput {
  return {
    call: { callId: 'c-1', agent: 'cursor', transport: 'mcp-http', tool: 'document-read', target: 'host', status: 'ok', startedAt: T0, durationMs: 2, requestBytes: 10, responseBytes: 20 },
    arguments: args,
    result,
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

describe('calls serialised for the writer thread', () => {
  for (const rules of [compileRedaction([]), compileRedaction(['/arguments/path', 're:sk-[a-z]+'])]) {
    test(`are stored exactly as redacting the call itself stores them (${rules.pointers.length + rules.patterns.length} configured rules)`, () => {
      const options = { rules, previewBytes: 4096 };
      for (const [name, input] of CALLS) {
        const direct = rowParams({ type: 'call', input }, options);
        const serialised = rowParams({ type: 'call', json: serializeCall(input) }, options);
        assert.deepEqual(serialised, direct, name);
      }
    });
  }

  test('a secret never survives the path that stores JSON text without parsing it', () => {
    const options = { rules: compileRedaction([]), previewBytes: 4096 };
    const stored = rowParams({ type: 'call', json: serializeCall(call({ headers: { Authorization: `Bearer ${secret}` } }, { echoed: `Bearer ${secret}` })) }, options);
    assert.ok(!JSON.stringify(stored).includes(secret));
    assert.deepEqual(JSON.parse(stored.redacted as string), ['/arguments/headers/Authorization']);
  });

  test('a value without JSON cannot be serialised, so the store prepares that call itself', () => {
    assert.throws(() => serializeCall(call({ n: 1n }, undefined)), TypeError);
  });
});
