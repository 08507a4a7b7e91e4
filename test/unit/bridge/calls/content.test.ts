import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContentBlock as McpContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ContentBlock } from '../../../../plugins/sdk/wire/index.js';
import type { JsonPieces } from '../../../../src-main/contracts/index.js';
import { checkedContentBlock, contentProblem, plainMediaBlock, plainTextBlock, toMcpContent } from '../../../../src-main/bridge/calls/content.js';
import { isBase64Checked } from '../../../../src-main/shared/index.js';

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

/** The blocks `byHand` converts, each held to MCP's schema (same value, same key order); at least ten must be. */
function agreeWithSchema(byHand: (block: ContentBlock) => McpContentBlock | undefined, blocks: readonly ContentBlock[]): McpContentBlock[] {
  const converted: McpContentBlock[] = [];
  for (const block of blocks) {
    const fast = byHand(block);
    if (fast === undefined) continue;
    converted.push(fast);
    const checked = checkedContentBlock(block);
    assert.deepStrictEqual(fast, checked, JSON.stringify(block));
    assert.equal(JSON.stringify(fast), JSON.stringify(checked), 'same key order');
  }
  assert.ok(converted.length >= 10, `converted ${converted.length}`);
  return converted;
}

test('a plain text block converts by hand exactly as MCP\'s schema converts it; any other block is left to the schema', () => {
  agreeWithSchema(plainTextBlock, corpus());
  assert.equal(plainTextBlock({ type: 'text', text: 'x', annotations: { priority: 1 } } as ContentBlock), undefined);
});

test('blocks MCP cannot carry still become text, and a text block keeps its mimeType in _meta', () => {
  assert.deepStrictEqual(toMcpContent([{ type: 'text', text: '{}', mimeType: 'application/json' } as ContentBlock]), [{ type: 'text', text: '{}', _meta: { mimeType: 'application/json' } }]);
  assert.deepStrictEqual(toMcpContent([{ type: 'text', text: 'a', mimeType: null } as ContentBlock]), [{ type: 'text', text: 'a' }]);
  assert.deepStrictEqual(toMcpContent([{ type: 'text', text: 5 } as unknown as ContentBlock]), [{ type: 'text', text: '{"type":"text","text":5}' }]);
});

function mediaCorpus(): ContentBlock[] {
  const blocks: Array<Record<string, unknown>> = [];
  for (const type of ['image', 'audio', 'Image', 'text']) {
    for (const data of ['aGk=', 'AAAAAA==', 'AAA=', '', 'aGk', 'a b=', 'a!b=', '====', 5, null, undefined]) {
      for (const mimeType of ['image/png', '', null, undefined, 3]) {
        const block: Record<string, unknown> = { type };
        if (data !== undefined) block['data'] = data;
        if (mimeType !== undefined) block['mimeType'] = mimeType;
        blocks.push(block);
      }
    }
  }
  for (const key of ['text', 'annotations', '_meta', 'resource', 'extra']) {
    for (const value of ODD) {
      const block: Record<string, unknown> = { type: 'image', data: 'aGk=', mimeType: 'image/png' };
      if (value !== undefined) block[key] = value;
      blocks.push(block);
    }
  }
  blocks.push({ mimeType: 'image/png', data: 'aGk=', type: 'image' });
  return blocks as ContentBlock[];
}

test('an image or audio block converts by hand exactly as MCP\'s schema converts it, its base64 read once and never decoded', () => {
  for (const block of agreeWithSchema(plainMediaBlock, mediaCorpus())) assert.ok(isBase64Checked(block), 'the block made is marked checked for the MCP room');
  // Unpadded base64 atob takes is left to the schema rather than passed by hand.
  assert.equal(plainMediaBlock({ type: 'image', data: 'aGk', mimeType: 'image/png' } as ContentBlock), undefined);
});

test('contentProblem refuses what MCP cannot carry and marks the media blocks it passed, frozen', () => {
  assert.match(contentProblem([{ type: 'image', data: 'a!b=', mimeType: 'image/png' } as ContentBlock]) ?? '', /content\[0\]: an image block's data is not base64/);
  assert.match(contentProblem([{ type: 'audio', data: 'aGk=' } as ContentBlock]) ?? '', /content\[0\]: an audio block needs a mimeType/);
  assert.match(contentProblem([{ type: 'image', data: 7, mimeType: 'image/png' } as unknown as ContentBlock]) ?? '', /needs its data as a base64 string/);
  const image = { type: 'image', data: 'aGk=', mimeType: 'image/png' } as ContentBlock;
  assert.equal(contentProblem([{ type: 'text', text: 'x' } as ContentBlock, image]), undefined);
  assert.ok(isBase64Checked(image) && Object.isFrozen(image));
  assert.deepStrictEqual(toMcpContent([image]), [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }]);
});

test('an image block reaches MCP without its base64 being decoded', () => {
  const data = Buffer.alloc(3 * 1024).toString('base64');
  const decode = globalThis.atob;
  let decoded = 0;
  globalThis.atob = (text: string) => {
    decoded++;
    return decode(text);
  };
  try {
    const block = { type: 'image', data, mimeType: 'image/png' } as ContentBlock;
    assert.equal(contentProblem([block]), undefined);
    assert.deepStrictEqual(toMcpContent([block]), [{ type: 'image', data, mimeType: 'image/png' }]);
    assert.deepStrictEqual(toMcpContent([{ type: 'audio', data, mimeType: 'audio/wav' } as ContentBlock]), [{ type: 'audio', data, mimeType: 'audio/wav' }]);
  } finally {
    globalThis.atob = decode;
  }
  assert.equal(decoded, 0);
});

test('an image block already in MCP\'s shape reaches MCP as the very object the plugin\'s reply held', () => {
  const block = { type: 'image', data: 'aGk=', mimeType: 'image/png' } as ContentBlock;
  assert.equal(contentProblem([block]), undefined);
  assert.equal(toMcpContent([block])[0], block);
  const reordered = { mimeType: 'image/png', type: 'image', data: 'aGk=' } as ContentBlock;
  assert.notEqual(toMcpContent([reordered])[0], reordered);
  assert.deepStrictEqual(Object.keys(toMcpContent([reordered])[0]!), ['type', 'data', 'mimeType']);
});

test('a screenshot read from a plugin reply\'s bytes is answered as those bytes, not encoded again', async () => {
  const { parseCallReply, outcomeFromReply } = await import('../../../../src-main/bridge/calls/index.js');
  const { jsonTextOf, LEAF_CHARS, parseJsonBytes } = await import('../../../../src-main/shared/index.js');
  const data = Buffer.alloc(LEAF_CHARS, 0x7b).toString('base64');
  const reply = { requestId: 'r', status: 1, value: { requestId: 'r', status: 1, content: [{ type: 'image', data, mimeType: 'image/png' }] } };
  const parsed = parseCallReply(parseJsonBytes(Buffer.from(JSON.stringify(reply))));
  assert.equal(contentProblem(parsed.content), undefined);
  const text = jsonTextOf(outcomeFromReply('shot', parsed, true).result);
  assert.equal(typeof text, 'object');
  const [leaf] = (text as JsonPieces).leaves;
  assert.equal(Buffer.from(leaf!.bytes!).toString('latin1'), data);
});
