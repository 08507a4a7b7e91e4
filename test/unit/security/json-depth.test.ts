import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonNestingExceeds } from '../../../src-main/security/index.js';
import { seededInts } from '../../support/seeded.js';

/** The definition, byte by byte: brackets outside strings, a backslash in a string escaping the next byte. */
function reference(body: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]!;
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}

test('the nesting check agrees with a byte-by-byte reading on bodies dense with strings, escapes and brackets', () => {
  const pieces = ['[', ']', '{', '}', '"', '\\', '\\\\', '\\"', 'a', ':', ',', '日'];
  const next = seededInts(11);
  let deep = 0;
  for (let n = 0; n < 20_000; n++) {
    let text = '';
    for (let k = next(40); k > 0; k--) text += pieces[next(pieces.length)];
    const body = Buffer.from(text);
    const expected = reference(body, 3);
    if (expected) deep++;
    assert.equal(jsonNestingExceeds(body, 3), expected, text);
  }
  assert.ok(deep > 300, `deep ${deep}`);
});

test('brackets inside a long string do not count, and nesting after it still does', () => {
  const inside = JSON.stringify({ data: `${'['.repeat(1000)}\\"${'x'.repeat(1 << 20)}`, more: [[[1]]] });
  assert.equal(jsonNestingExceeds(Buffer.from(inside), 4), false);
  assert.equal(jsonNestingExceeds(Buffer.from(inside), 3), true);
  assert.equal(jsonNestingExceeds(Buffer.from(`${'['.repeat(129)}${']'.repeat(129)}`), 128), true);
});
