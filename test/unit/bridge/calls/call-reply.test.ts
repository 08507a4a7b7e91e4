import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCallToolDataSchema, ResponseErrorKind, ResponseStatus } from '../../../../plugins/sdk/wire/index.js';
import { parseCallReply, readWellFormedReply } from '../../../../src-main/bridge/calls/call-reply.js';
import { InvokeFailure } from '../../../../src-main/bridge/calls/index.js';

type Json = Record<string, unknown>;

const block = (): Json => ({ type: 'text', text: 'hello' });
const callTool = (): Json => ({ requestId: 'r1', status: ResponseStatus.Success, content: [block()], errorKind: ResponseErrorKind.None });
const envelope = (): Json => ({ requestId: 'r1', status: ResponseStatus.Success, value: callTool() });

/** Values a peer might put in any field: right and wrong types, enum names, out-of-range numbers. */
const ODD_VALUES: unknown[] = [
  undefined, null, '', 'x', '1', 'Success', 'error', 'Processing', 0, 1, 2, 3, 6, 7, -1, 1.5, NaN, Infinity, 2 ** 53, 2 ** 53 - 1,
  -0, true, false, {}, [], [block()], [null], [{}], [{ type: 1 }], { type: 'text' }, { x: 1 },
];

/** Key spellings the schema folds (or refuses as duplicates), and keys it ignores or passes through. */
const SPELLINGS: Array<[string, string]> = [
  ['status', 'Status'], ['status', 'STATUS'], ['value', 'Value'], ['requestId', 'requestid'], ['content', 'Content'],
  ['text', 'Text'], ['type', 'TYPE'], ['mimeType', 'mimetype'],
];

function withField(target: Json, key: string, value: unknown): Json {
  const copy = { ...target };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** The envelope with one field set at each level (envelope, call result, first content block). */
function corpus(): unknown[] {
  const items: unknown[] = [
    envelope(), null, undefined, 'text', 42, [], [envelope()], {}, { value: null }, { status: 1, value: null }, { status: 1 },
    { status: 1, message: 'no value' }, { content: [block()] }, { status: 1, content: [block()] },
    { status: 0, message: 'failed', errorKind: 4, httpStatusCode: 504, value: { status: 0, content: [], notExecuted: true } },
    { status: 2, value: { requestId: 'r1', status: 2 } },
    { status: 1, value: { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png', annotations: { audience: ['user'] }, _meta: { a: 1 } }] } },
    { status: 1, value: { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'x' } }] } },
    { status: 1, value: { content: [{ extra: 1, type: 'text', text: null, data: null, mimeType: null, resource: null }] } },
    { status: 1, value: { content: [], structuredContent: { rows: [1, 2] } } },
    { status: 1, value: { content: [], structuredContent: null } },
    { status: 1, value: { status: 1, content: [block()] }, unknownField: 'dropped' },
    JSON.parse('{"status":1,"value":{"content":[{"type":"text","__proto__":{"polluted":true}}]}}'),
    JSON.parse('{"status":1,"__proto__":{"value":1},"value":{}}'),
    Object.create({ inherited: true }, { status: { value: 1, enumerable: true }, value: { value: {}, enumerable: true } }),
    { status: 1, Status: 1, value: {} },
  ];
  for (const key of ['requestId', 'status', 'message', 'errorKind', 'httpStatusCode', 'value']) {
    for (const odd of ODD_VALUES) items.push(withField(envelope(), key, odd));
  }
  for (const key of ['requestId', 'status', 'content', 'structuredContent', 'errorKind', 'httpStatusCode', 'notExecuted']) {
    for (const odd of ODD_VALUES) items.push({ ...envelope(), value: withField(callTool(), key, odd) });
  }
  for (const key of ['type', 'text', 'data', 'mimeType', 'resource', 'annotations']) {
    for (const odd of ODD_VALUES) items.push({ ...envelope(), value: { ...callTool(), content: [block(), withField(block(), key, odd)] } });
  }
  for (const [from, to] of SPELLINGS) {
    const rename = (o: Json): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k === from ? to : k, v]));
    items.push(rename(envelope()), { ...envelope(), value: rename(callTool()) }, { ...envelope(), value: { ...callTool(), content: [rename({ ...block(), mimeType: 'text/plain' })] } });
  }
  return items;
}

/** Every key at every depth in order, undefined-valued keys included: deepStrictEqual ignores order. */
function keyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keyOrder);
  if (typeof value !== 'object' || value === null) return value;
  return Object.entries(value).map(([key, v]) => [key, v === undefined ? '(undefined)' : keyOrder(v)]);
}

test('the hand-written reader yields exactly what the schema yields, or declines', () => {
  let accepted = 0;
  let declined = 0;
  for (const item of corpus()) {
    const fast = readWellFormedReply(item);
    const parsed = ResponseCallToolDataSchema.safeParse(item);
    if (fast === undefined) {
      declined++;
      continue;
    }
    accepted++;
    assert.ok(parsed.success, `the reader accepted what the schema refuses: ${JSON.stringify(item)}`);
    assert.deepStrictEqual(fast, parsed.data, JSON.stringify(item));
    assert.deepStrictEqual(keyOrder(fast), keyOrder(parsed.data), `key order differs for ${JSON.stringify(item)}`);
  }
  // Both paths are exercised: the common shapes are read by hand, the odd ones left to the schema.
  assert.ok(accepted >= 60, `accepted ${accepted}`);
  assert.ok(declined >= 100, `declined ${declined}`);
});

test('the common reply shapes are read by hand', () => {
  for (const item of [
    envelope(),
    { requestId: 'r', status: 1, message: null, errorKind: 0, httpStatusCode: null, value: { requestId: 'r', status: 1, content: [block()], structuredContent: { a: 1 }, errorKind: 0, httpStatusCode: null, notExecuted: null } },
    { status: 0, message: 'failed', errorKind: 5, value: { status: 0, content: [{ type: 'text', text: 'down' }], notExecuted: true } },
    { status: 1, value: null },
  ]) {
    assert.notEqual(readWellFormedReply(item), undefined, JSON.stringify(item));
  }
});

test('malformed replies are refused by the schema, with its message', () => {
  for (const item of corpus()) {
    let failure: unknown;
    try {
      parseCallReply(item);
    } catch (error) {
      failure = error;
    }
    if (failure === undefined) continue;
    assert.ok(failure instanceof InvokeFailure && /^(protocol|noAnswer)$/.test(failure.reason), String(failure));
    assert.equal(readWellFormedReply(item), undefined, `the reader accepted a refused reply: ${JSON.stringify(item)}`);
  }
  assert.throws(() => parseCallReply({ status: 'Bogus', value: {} }), (error: unknown) => error instanceof InvokeFailure && error.reason === 'protocol' && /status: expected one of Error, Success, Processing/.test(error.message));
  assert.throws(() => parseCallReply({ status: 1.5, value: {} }), (error: unknown) => error instanceof InvokeFailure && error.reason === 'protocol' && /got 1\.5/.test(error.message));
  assert.throws(() => parseCallReply({ status: 1, value: { content: [{ type: 1 }] } }), (error: unknown) => error instanceof InvokeFailure && error.reason === 'protocol' && /^value\.content\.0\.type: /.test(error.message));
});

test('a well-formed reply becomes the same plugin reply by either reader', () => {
  const item = { requestId: 'r', status: 1, value: { status: 1, content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], structuredContent: { n: 1 } } };
  const parsed = ResponseCallToolDataSchema.parse(item);
  assert.deepStrictEqual(readWellFormedReply(item), parsed);
  assert.deepStrictEqual(parseCallReply(item), { status: 1, content: parsed.value!.content, structuredContent: { n: 1 }, errorKind: 0, httpStatusCode: undefined, message: 'a\nb' });
});
