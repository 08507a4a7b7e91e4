import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeMessage, completionResult, parseClientMessage, parseHandshakeRequest, readPlainCompletion } from '../../../../src-main/bridge/signalr/hub-messages.js';

function error(text: string): string {
  const parsed = parseClientMessage(text);
  assert.equal(parsed.ok, false);
  return parsed.ok ? '' : parsed.error;
}

describe('parseClientMessage', () => {
  test('accepts every client message type with its required fields', () => {
    const valid = [
      { type: 1, target: 'A', arguments: [1] },
      { type: 1, invocationId: '7', target: 'A', arguments: [], headers: { k: 'v' } },
      { type: 2, invocationId: '1', item: { x: 1 } },
      { type: 3, invocationId: '1', result: null },
      { type: 3, invocationId: '1', error: 'bad' },
      { type: 4, invocationId: '2', target: 'S', arguments: [] },
      { type: 5, invocationId: '2' },
      { type: 6 },
      { type: 7, error: 'bye', allowReconnect: false },
    ];
    for (const message of valid) {
      const parsed = parseClientMessage(JSON.stringify(message));
      assert.ok(parsed.ok, JSON.stringify(message));
      assert.equal(parsed.value.type, message.type);
    }
  });

  test('reads null optional fields as absent, as ASP.NET Core does', () => {
    const invocation = parseClientMessage('{"type":1,"invocationId":null,"target":"A","arguments":[],"streamIds":null,"headers":null}');
    assert.deepEqual(invocation, { ok: true, value: { type: 1, target: 'A', arguments: [] } });
    const completion = parseClientMessage('{"type":3,"invocationId":"1","error":null,"result":5}');
    assert.deepEqual(completion, { ok: true, value: { type: 3, invocationId: '1', result: 5 } });
    assert.match(error('{"type":3,"invocationId":null}'), /'invocationId'/);
  });

  test('names what is wrong: JSON, shape, type, missing fields', () => {
    assert.match(error('{oops'), /not valid JSON/);
    assert.match(error('"str"'), /not a JSON object/);
    assert.match(error('{}'), /unknown message type undefined/);
    assert.match(error('{"type":"1"}'), /unknown message type "1"/);
    assert.match(error('{"type":8,"sequenceId":1}'), /unknown message type 8/);
    assert.match(error('{"type":1,"arguments":[]}'), /'target'/);
    assert.match(error('{"type":1,"target":"A"}'), /'arguments'/);
    assert.match(error('{"type":1,"target":"A","arguments":[],"invocationId":5}'), /'invocationId'/);
    assert.match(error('{"type":4,"target":"A","arguments":[]}'), /'invocationId'/);
    assert.match(error('{"type":3,"invocationId":"1","error":42}'), /'error'/);
    assert.match(error('{"type":5}'), /'invocationId'/);
  });
});

describe('parseHandshakeRequest', () => {
  test('accepts json version 1 only', () => {
    assert.deepEqual(parseHandshakeRequest('{"protocol":"json","version":1}'), { ok: true, value: { protocol: 'json', version: 1 } });
    for (const [text, expected] of [
      ['{"protocol":"messagepack","version":1}', /'messagepack' is not supported/],
      ['{"protocol":"json","version":2}', /version 2/],
      ['{"protocol":"json"}', /Invalid handshake request/],
      ['nope', /not valid JSON/],
    ] as const) {
      const parsed = parseHandshakeRequest(text);
      assert.ok(!parsed.ok);
      assert.match(parsed.error, expected);
    }
  });
});

test('server messages omit absent optional fields', () => {
  assert.deepEqual(closeMessage(undefined, true), { type: 7, allowReconnect: true });
  assert.deepEqual(completionResult('3', undefined), { type: 3, invocationId: '3' });
  assert.deepEqual(completionResult('3', null), { type: 3, invocationId: '3', result: null });
});

test('a plain Completion read without the schema is exactly what the schema reads, anything else is left to it', () => {
  const results: unknown[] = [undefined, null, 0, 'text', [], [1, { a: null }], { status: 1, value: { content: [{ type: 'text', text: 'x' }] } }];
  const corpus: Array<Record<string, unknown>> = [];
  for (const result of results) {
    for (const error of [undefined, null, '', 'failed', 5, {}]) {
      for (const invocationId of [undefined, null, '', '1', 7]) {
        for (const type of [3, '3', 2]) {
          const message: Record<string, unknown> = { type };
          if (invocationId !== undefined) message['invocationId'] = invocationId;
          if (result !== undefined) message['result'] = result;
          if (error !== undefined) message['error'] = error;
          corpus.push(message, { result: 1, ...message }, { ...message, headers: { a: 'b' } }, { ...message, extra: true });
        }
      }
    }
  }
  let read = 0;
  for (const message of corpus) {
    const fast = readPlainCompletion(JSON.parse(JSON.stringify(message)) as object);
    // An unknown field sends the message to the schema, which drops it: the schema's own reading of `message`.
    assert.equal(readPlainCompletion({ ...message, unknownField: 1 }), undefined);
    const viaSchema = parseClientMessage(JSON.stringify({ ...message, unknownField: 1 }));
    if (fast === undefined) continue;
    read++;
    assert.ok(viaSchema.ok, `read what the schema refuses: ${JSON.stringify(message)}`);
    assert.deepStrictEqual(fast, viaSchema.value, JSON.stringify(message));
    assert.deepStrictEqual(Object.keys(fast), Object.keys(viaSchema.value), JSON.stringify(message));
    assert.deepStrictEqual(parseClientMessage(JSON.stringify(message)), viaSchema);
  }
  assert.ok(read >= 40, `read ${read}`);
  assert.equal(readPlainCompletion(JSON.parse('{"type":3,"invocationId":"1","__proto__":{"result":1}}') as object), undefined);
});
