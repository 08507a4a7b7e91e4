import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEAF_CHARS, parseJsonBytes } from '../../../src-main/shared/index.js';

const long = (seed: string) => seed.repeat(Math.ceil((LEAF_CHARS + 10) / seed.length));

/** What `JSON.parse(bytes.toString('utf8'))` answers: the value, or the parser's message. */
function plain(bytes: Buffer): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function viaBytes(bytes: Buffer): { value?: unknown; error?: string } {
  try {
    return { value: parseJsonBytes(bytes) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const big = long('QUJDREVG');
const bodies: Array<string | Buffer> = [
  JSON.stringify({ data: big }),
  JSON.stringify(big),
  JSON.stringify([big, 1, { nested: big }, big]),
  JSON.stringify({ [big]: 1, after: big }),
  `{"a" : "${big}"  ,  "b":"x"}`,
  `{ "${big}" : "${big}" }`,
  JSON.stringify({ escaped: long('a"b\\c\n'), plain: big }),
  JSON.stringify({ accents: long('héllo ✓ 😀 '), plain: big }),
  `{"data":"${big}","data":"dup"}`,
  `{"__proto__":"${big}","x":1}`,
  `{"data":"${big}\u0001"}`,
  `{"data":"${big}\t"}`,
  `{"data":"${big}","broken":}`,
  `{"data":"${big}`,
  `{"data":"${big}"}garbage`,
  `\ufeff{"data":"${big}"}`,
  `["${big}", "\\u0000${'0'.repeat(24)}:0"]`,
  Buffer.concat([Buffer.from('{"data":"'), Buffer.alloc(LEAF_CHARS + 5, 0xc3), Buffer.from('"}')]),
  Buffer.concat([Buffer.from('{"data":"'), Buffer.from(big), Buffer.from([0xe2, 0x82]), Buffer.from('","k":1}')]),
  Buffer.concat([Buffer.from('{"data":"'), Buffer.from(big), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x"}')]),
  `{"small":"${'x'.repeat(100)}"}`,
  `[${Array.from({ length: 2000 }, (_, i) => `"s${i}"`).join(',')},"${big}"]`,
];

test('a body read from its bytes is the value JSON.parse gives its text, and a refusal the same message', () => {
  for (const body of bodies) {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    assert.deepStrictEqual(viaBytes(bytes), plain(bytes), bytes.subarray(0, 60).toString());
  }
});

test('a long string is decoded from its bytes: no string of the whole body is made', () => {
  const bytes = Buffer.from(JSON.stringify({ data: big, small: 'x' }));
  const decode = Buffer.prototype.toString;
  const decoded: number[] = [];
  Buffer.prototype.toString = function (this: Buffer, ...args: unknown[]) {
    const text = (decode as (...a: unknown[]) => string).apply(this, args);
    decoded.push(text.length);
    return text;
  } as typeof Buffer.prototype.toString;
  try {
    assert.deepStrictEqual(parseJsonBytes(bytes), { data: big, small: 'x' });
  } finally {
    Buffer.prototype.toString = decode;
  }
  assert.deepEqual(decoded.filter((length) => length >= big.length), [big.length], `decoded lengths ${decoded.join(', ')}`);
});
