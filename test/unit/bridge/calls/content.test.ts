import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContentBlock } from '../../../../plugins/sdk/wire/index.js';
import { checkedContentBlock, plainTextBlock, toMcpContent } from '../../../../src-main/bridge/calls/content.js';

const ODD: unknown[] = [undefined, null, '', 'x', 'application/json', 0, 1, true, {}, [], { a: 1 }];

function corpus(): ContentBlock[] {
  const blocks: Array<Record<string, unknown>> = [
    { type: 'text', text: 'hello' },
    { type: 'text', text: '' },
    { type: 'text', text: '{"a":1}', mimeType: 'application/json' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x' } },
    { type: 'resource_link', uri: 'file:///a', name: 'a' },
    { type: 'unknown-kind', text: 'x' },
    { type: 'Text', text: 'x' },
  ];
  for (const key of ['type', 'text', 'mimeType', 'data', 'annotations', '_meta', 'resource', 'extra']) {
    for (const value of ODD) {
      const block: Record<string, unknown> = { type: 'text', text: 'hello' };
      if (value === undefined) delete block[key];
      else block[key] = value;
      blocks.push(block);
    }
  }
  blocks.push({ type: 'text', text: 'x', annotations: { audience: ['user'], priority: 0.5 } }, { type: 'text', text: 'x', _meta: { a: 1 }, mimeType: 'text/plain' });
  return blocks as ContentBlock[];
}

test('a plain text block converts by hand exactly as MCP\'s schema converts it; any other block is left to the schema', () => {
  let plain = 0;
  for (const block of corpus()) {
    const fast = plainTextBlock(block);
    if (fast === undefined) continue;
    plain++;
    const checked = checkedContentBlock(block);
    assert.deepStrictEqual(fast, checked, JSON.stringify(block));
    assert.equal(JSON.stringify(fast), JSON.stringify(checked), 'same key order');
  }
  assert.ok(plain >= 10, `plain ${plain}`);
  assert.equal(plainTextBlock({ type: 'text', text: 'x', annotations: { priority: 1 } } as ContentBlock), undefined);
});

test('blocks MCP cannot carry still become text, and a text block keeps its mimeType in _meta', () => {
  assert.deepStrictEqual(toMcpContent([{ type: 'text', text: '{}', mimeType: 'application/json' } as ContentBlock]), [{ type: 'text', text: '{}', _meta: { mimeType: 'application/json' } }]);
  assert.deepStrictEqual(toMcpContent([{ type: 'text', text: 'a', mimeType: null } as ContentBlock]), [{ type: 'text', text: 'a' }]);
  assert.deepStrictEqual(toMcpContent([{ type: 'text', text: 5 } as unknown as ContentBlock]), [{ type: 'text', text: '{"type":"text","text":5}' }]);
});
