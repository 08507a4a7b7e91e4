import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { messageJson, passesAsItStands, resultResponseJson, withJson } from '../../../src-main/mcp/tool-result-json.js';

const text = (t: string) => ({ type: 'text', text: t });

/** Results, and whether the schema passes each as it stands (same JSON after its parse). */
const CASES: Array<[string, unknown, boolean]> = [
  ['text content', { content: [text('hi "there" \u2028 \ud83d\ude00')] }, true],
  ['empty content', { content: [] }, true],
  ['structured and isError', { content: [text('{}')], structuredContent: { a: 1, nested: { b: [1, 'x'] }, 2: 'n' }, isError: false }, true],
  ['isError first (reordered by the schema)', { isError: true, content: [text('x')] }, false],
  ['structured before content', { structuredContent: {}, content: [] }, false],
  ['no content (defaulted by the schema)', { structuredContent: { a: 1 } }, false],
  ['_meta', { content: [], _meta: { trace: 'x' } }, false],
  ['a key of its own (kept last by the schema)', { content: [], extra: 1 }, false],
  ['block with an extra key (stripped)', { content: [{ type: 'text', text: 'a', extra: 1 }] }, false],
  ['block keys reordered', { content: [{ text: 'a', type: 'text' }] }, false],
  ['block with annotations', { content: [{ type: 'text', text: 'a', annotations: { priority: 1 } }] }, false],
  ['image block', { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] }, true],
  ['audio block beside text', { content: [text('x'), { type: 'audio', data: 'AAAAAA==', mimeType: 'audio/wav' }] }, true],
  ['image data not base64 (refused by atob)', { content: [{ type: 'image', data: 'a!b=', mimeType: 'image/png' }] }, false],
  ['image data unpadded (atob takes it; declined in doubt)', { content: [{ type: 'image', data: 'aGk', mimeType: 'image/png' }] }, false],
  ['image block keys reordered', { content: [{ data: 'aGk=', type: 'image', mimeType: 'image/png' }] }, false],
  ['image block without mimeType (refused)', { content: [{ type: 'image', data: 'aGk=' }] }, false],
  ['image block with annotations', { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png', annotations: { priority: 1 } }] }, false],
  ['image block of another type name', { content: [{ type: 'picture', data: 'aGk=', mimeType: 'image/png' }] }, false],
  ['own __proto__ in structuredContent (dropped)', { content: [], structuredContent: JSON.parse('{"__proto__":{"x":1},"a":1}') as unknown }, false],
  ['array as structuredContent (refused)', { content: [], structuredContent: [1] }, false],
  ['isError not a boolean (refused)', { content: [], isError: 'yes' }, false],
  ['text not a string (refused)', { content: [{ type: 'text', text: 1 }] }, false],
  ['not an object', 'text', false],
];

test('a result passes as it stands only when the SDK schema would parse it into the same JSON', () => {
  for (const [name, result, passes] of CASES) {
    assert.equal(passesAsItStands(result), passes, name);
    if (!passes) continue;
    const parsed = safeParse(CallToolResultSchema, result);
    assert.ok(parsed.success, name);
    assert.equal(JSON.stringify(parsed.data), JSON.stringify(result), name);
  }
});

test("a response whose result came with its JSON is that JSON spliced into the SDK's envelope; any other is serialised", () => {
  const result = { content: [text('a')] };
  const json = JSON.stringify(result);
  for (const id of [7, 'req-1']) {
    const response = { result: withJson(result, json), jsonrpc: '2.0' as const, id };
    assert.equal(messageJson(response), JSON.stringify(response));
  }
  // The text is used as given (here deliberately not the object's own JSON), so it is spliced, not re-made.
  const marked = { result: withJson({ content: [] }, '{"content":["spliced"]}'), jsonrpc: '2.0' as const, id: 1 };
  assert.equal(messageJson(marked), '{"result":{"content":["spliced"]},"jsonrpc":"2.0","id":1}');
  const otherOrder = { jsonrpc: '2.0' as const, id: 1, result: marked.result };
  assert.equal(messageJson(otherOrder), JSON.stringify(otherOrder));
  const unmarked = { result: { content: [] }, jsonrpc: '2.0' as const, id: 2 };
  assert.equal(messageJson(unmarked), JSON.stringify(unmarked));
});

test('a result handed over with its JSON answers as the same response the SDK would have serialised', () => {
  const result = { content: [text('a')] };
  for (const id of [7, 'req-1']) assert.equal(resultResponseJson(id, result, JSON.stringify(result)), JSON.stringify({ result, jsonrpc: '2.0', id }));
  assert.equal(resultResponseJson(1, { content: [] }, '{"content":["spliced"]}'), '{"result":{"content":["spliced"]},"jsonrpc":"2.0","id":1}');
  // Without the text, or with an id JSON does not write as it is, the response is serialised whole.
  assert.equal(resultResponseJson(2, result, undefined), JSON.stringify({ result, jsonrpc: '2.0', id: 2 }));
  assert.equal(resultResponseJson(2 ** 60, { content: [] }, '{"content":["spliced"]}'), JSON.stringify({ result: { content: [] }, jsonrpc: '2.0', id: 2 ** 60 }));
});
