import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonText } from '../../../src-main/contracts/index.js';
import { cappedJsonText, concatText, flatText, jsonText, jsonTextOf, LEAF_CHARS, markBase64Checked, parseJsonBytes, replaceEnd, textByteLength, textLength, textParts, textPrefix, writeText } from '../../../src-main/shared/index.js';

const long = (seed: string) => seed.repeat(Math.ceil(LEAF_CHARS / seed.length) + 3);

/** Values JSON.stringify writes in every way it can: long strings in each place, and what makes it call, skip or refuse. */
function corpus(): unknown[] {
  const big = long('QUJD');
  const cyclic: Record<string, unknown> = { data: big };
  cyclic['self'] = cyclic;
  return [
    { data: big },
    big,
    [big, 1, undefined, () => 1, Symbol('s'), big],
    { content: [{ type: 'image', data: big, mimeType: 'image/png' }, { type: 'text', text: long('héllo wörld ') }] },
    { escaped: long('a"b\\c\n'), surrogate: long('\ud83d\ude00'), lone: long('x\ud800'), control: long('x\u007f') },
    { skipped: undefined, fn: () => 1, sym: Symbol('x'), kept: big, [Symbol('k')]: big },
    { date: new Date(0), nested: { toJSON: (key: string) => `to-${key}-${big.slice(0, 10)}` }, after: big },
    { viaToJson: { toJSON: () => ({ data: big }) } },
    { map: new Map([['a', big]]), set: new Set([big]), instance: new (class { field = big })() },
    Object.defineProperty({ plain: 1 }, 'getter', { enumerable: true, get: () => big }),
    // eslint-disable-next-line no-sparse-arrays -- holes are written as null, which the pieces must match
    { holes: [, big, ,] },
    { number: NaN, inf: -Infinity, negZero: -0, nul: null, big },
    { bigint: 1n, data: big },
    cyclic,
    { short: 'x'.repeat(LEAF_CHARS - 1) },
    { nested: { deeper: [{ key: big, name: big }] } },
    { looksLikeAMarker: long('\u0000tag:0'), data: big },
  ];
}

test('JSON text in pieces is exactly what jsonText writes, whatever the value', () => {
  let inPieces = 0;
  for (const value of corpus()) {
    const text = jsonTextOf(value);
    if (typeof text !== 'string') inPieces++;
    const whole = jsonText(value);
    assert.equal(flatText(text), whole);
    assert.equal(textLength(text), whole.length);
    assert.equal(textByteLength(text), Buffer.byteLength(whole));
    for (const chars of [0, 1, 17, LEAF_CHARS, LEAF_CHARS + 5, whole.length + 3]) assert.equal(textPrefix(text, chars), whole.slice(0, chars));
    let written = '';
    writeText({ write: (chunk: string) => (written += chunk), end: (chunk?: string) => (written += chunk ?? '') }, text, true);
    assert.equal(written, whole);
    assert.deepEqual(cappedJsonText(text, 4096), cappedJsonText(whole, 4096));
  }
  assert.ok(inPieces >= 10, `in pieces: ${inPieces}`);
});

test('a long string is a piece of its own, with the key it is the value of; short or escaped ones are written inline', () => {
  const big = long('QUJD');
  const text = jsonTextOf({ a: 1, data: big, list: [big], quoted: long('"') }) as Exclude<JsonText, string>;
  assert.equal(typeof text, 'object');
  assert.deepEqual(text.parts.filter((_, i) => i % 2 === 1).map((part) => part === big), [true, true]);
  assert.deepEqual(text.leaves, [{ key: 'data' }, { key: undefined }]);
  assert.equal(typeof jsonTextOf({ text: 'x'.repeat(100) }), 'string');
});

/** How many times `run` searched a long string with a regular expression. */
function longSearches(run: () => void): number {
  const search = RegExp.prototype.test;
  let searched = 0;
  RegExp.prototype.test = function (this: RegExp, input: string) {
    if (typeof input === 'string' && input.length >= LEAF_CHARS) searched++;
    return search.call(this, input);
  };
  try {
    run();
  } finally {
    RegExp.prototype.test = search;
  }
  return searched;
}

test('the data of an image block found base64 is taken as it is, without a search for what to escape', () => {
  const data = long('QUJD');
  const block = markBase64Checked({ type: 'image', data, mimeType: 'image/png' });
  assert.equal(longSearches(() => assert.equal(flatText(jsonTextOf({ content: [block] })), JSON.stringify({ content: [block] }))), 0);
});

test('pieces join, end differently and preview as one text would', () => {
  const big = long('QUJD');
  const pieces = jsonTextOf({ data: big });
  const whole = JSON.stringify({ data: big });
  assert.equal(flatText(concatText('{"result":', pieces, ',"id":1}')), `{"result":${whole},"id":1}`);
  assert.equal(concatText('a', 'b', 'c'), 'abc');
  assert.equal(flatText(concatText(pieces, ',', pieces)), `${whole},${whole}`);
  assert.equal(textParts(concatText(pieces, ',', pieces)).length, 5);
  assert.equal(flatText(replaceEnd(pieces, 1, ',"x":2}')), `${whole.slice(0, -1)},"x":2}`);
  assert.equal(replaceEnd('{"a":1}', 1, ',"b":2}'), '{"a":1,"b":2}');
  const capped = cappedJsonText(pieces, 1000);
  assert.equal(capped.truncated, true);
  assert.ok(capped.bytes <= 1000);
});

test('a long string read from bytes without escapes is written again without a search, and only while it is still there', () => {
  const data = long('QUJD');
  const args = parseJsonBytes(Buffer.from(JSON.stringify({ data, list: [data] }))) as { data: string; list: string[] };
  assert.equal(longSearches(() => assert.equal(flatText(jsonTextOf(args)), JSON.stringify(args))), 0);
  args.data = long('needs "escaping"');
  assert.ok(longSearches(() => assert.equal(flatText(jsonTextOf(args)), JSON.stringify(args), 'a value put in its place is escaped')) > 0, 'and searched');
});

test('a long string read from ASCII bytes is written as those bytes; one read from other UTF-8 is encoded again', () => {
  const ascii = long('QUJD');
  const accented = long('héllo ');
  const parsed = parseJsonBytes(Buffer.from(JSON.stringify({ ascii, accented }))) as Record<string, string>;
  const text = jsonTextOf(parsed) as Exclude<JsonText, string>;
  assert.deepEqual(
    text.leaves.map((leaf) => (leaf.bytes ? Buffer.from(leaf.bytes).toString('latin1') === ascii : leaf.bytes)),
    [true, undefined],
  );
  const chunks: Array<string | Uint8Array> = [];
  writeText({ write: (chunk: string | Uint8Array) => chunks.push(chunk), end: (chunk?: string) => chunks.push(chunk ?? '') }, text, true);
  assert.equal(chunks.filter((chunk) => typeof chunk !== 'string').length, 1, 'the ASCII string goes as its bytes');
  assert.equal(Buffer.concat(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk))).toString(), JSON.stringify(parsed));
  assert.equal(textByteLength(text), Buffer.byteLength(JSON.stringify(parsed)));
});
