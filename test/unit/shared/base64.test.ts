import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isBase64, isBase64Checked, markBase64Checked } from '../../../src-main/shared/index.js';
import { seededInts } from '../../support/seeded.js';

/** The definition: whole quads of the standard alphabet, `=` only as the last one or two characters. */
const reference = (text: string) => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);

test('isBase64 passes exactly strict base64, and atob takes all it passes', () => {
  const alphabet = ['A', 'z', '0', '+', '/', '=', ' ', '\n', '-', '_', 'é', '\u0000'];
  const next = seededInts(3);
  let passed = 0;
  for (let n = 0; n < 50_000; n++) {
    let text = '';
    for (let k = next(10); k > 0; k--) text += alphabet[next(next(3) === 0 ? alphabet.length : 6)];
    const expected = reference(text);
    assert.equal(isBase64(text), expected, JSON.stringify(text));
    if (!expected) continue;
    passed++;
    assert.doesNotThrow(() => atob(text), JSON.stringify(text));
  }
  assert.ok(passed > 500, `passed ${passed}`);
  const screenshot = Buffer.alloc(3 << 20, 0xa7).toString('base64');
  assert.equal(isBase64(screenshot), true);
  assert.equal(isBase64(`${screenshot.slice(0, -4)}A=A=`), false);
  assert.equal(isBase64(`${screenshot.slice(0, -4)}AA==`), true);
});

test('a block marked checked is frozen, so the data found base64 cannot be swapped afterwards', () => {
  const block = markBase64Checked({ type: 'image', data: 'aGk=', mimeType: 'image/png' });
  assert.ok(isBase64Checked(block));
  assert.ok(Object.isFrozen(block));
  assert.throws(() => {
    (block as { data: string }).data = 'not base64!';
  }, TypeError);
  assert.equal(isBase64Checked({ ...block }), false, 'a copy is not marked');
});
