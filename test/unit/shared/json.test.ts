import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findLoneSurrogate, hasLoneSurrogate, keysAre } from '../../../src-main/shared/index.js';
import { seededInts } from '../../support/seeded.js';

/** The definition, code unit by code unit: a high surrogate not followed by a low one, or a low one not preceded by a high one. */
function reference(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const high = c >= 0xd800 && c <= 0xdbff;
    const low = c >= 0xdc00 && c <= 0xdfff;
    if (high && !(text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff)) return true;
    if (high) i++;
    else if (low) return true;
  }
  return false;
}

test('hasLoneSurrogate finds exactly the unpaired surrogates, in one-byte and two-byte text alike', () => {
  const units = ['a', 'é', '日', '\ud83d', '\ude00', '\ud83d\ude00', '\udbff\udfff', '\ud800\udc00', ''];
  const next = seededInts(7);
  let lone = 0;
  for (let n = 0; n < 5000; n++) {
    let text = '';
    for (let k = next(8); k > 0; k--) text += units[next(units.length)];
    const expected = reference(text);
    if (expected) lone++;
    assert.equal(hasLoneSurrogate(text), expected, JSON.stringify(text));
  }
  assert.ok(lone > 500, `lone ${lone}`);
  assert.equal(hasLoneSurrogate('x'.repeat(1 << 20)), false);
  assert.equal(hasLoneSurrogate(`${'x'.repeat(1 << 20)}\ud800`), true);
});

test('findLoneSurrogate names the path of the first string holding one, keys included', () => {
  assert.equal(findLoneSurrogate({ a: ['ok', { b: 'x\udc00' }] }), '$.a[1].b');
  assert.equal(findLoneSurrogate({ ['k\ud800']: 1 }), '$.k\ud800');
  assert.equal(findLoneSurrogate({ a: '\ud83d\ude00', b: ['日本'] }), undefined);
});

test('keysAre holds for exactly those keys in that order, and for nothing more, less or reordered', () => {
  const keys = ['type', 'data', 'mimeType'];
  assert.equal(keysAre({ type: 'image', data: 'AA==', mimeType: 'image/png' }, keys), true);
  assert.equal(keysAre({ data: 'AA==', type: 'image', mimeType: 'image/png' }, keys), false, 'reordered');
  assert.equal(keysAre({ type: 'image', data: 'AA==' }, keys), false, 'one missing');
  assert.equal(keysAre({ type: 'image', data: 'AA==', mimeType: 'image/png', extra: 1 }, keys), false, 'one more');
  assert.equal(keysAre(Object.assign(Object.create({ inherited: 1 }) as object, { type: 'image', data: 'AA==', mimeType: 'image/png' }), keys), false, 'an inherited enumerable key counts');
  assert.equal(keysAre({}, []), true);
});
