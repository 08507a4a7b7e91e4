import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyTextEdits, clipUtf16, lineStarts, resolvePosition, toLineColumn } from '../../../src-main/host/transactions/index.js';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'none';
};

describe('text edits', () => {
  test('offsets and line/column (including CRLF) resolve to the same place', () => {
    const text = 'ab\r\ncd\nef';
    assert.equal(resolvePosition('f', text, { line: 1, column: 1 }), 5);
    assert.equal(resolvePosition('f', text, { line: 0, column: 2 }), 2);
    assert.equal(code(() => resolvePosition('f', text, { line: 0, column: 3 })), 'RangeInvalid');
    assert.equal(resolvePosition('f', text, { line: 2, column: 2 }), text.length);
    assert.equal(code(() => resolvePosition('f', text, { line: 3, column: 0 })), 'RangeInvalid');
    assert.equal(code(() => resolvePosition('f', text, { offset: -1 })), 'RangeInvalid');
  });

  test('a position between the halves of a surrogate pair is RangeInvalid', () => {
    const text = 'a😀b';
    assert.equal(code(() => resolvePosition('f', text, { offset: 2 })), 'RangeInvalid');
    assert.equal(resolvePosition('f', text, { offset: 3 }), 3);
  });

  test('edits apply against the original text regardless of order; overlaps are refused', () => {
    const text = 'hello world';
    const edits = [
      { range: { start: { offset: 6 }, end: { offset: 11 } }, newText: 'there' },
      { range: { start: { offset: 0 }, end: { offset: 5 } }, newText: 'hi' },
    ];
    assert.equal(applyTextEdits('f', text, edits), 'hi there');
    assert.equal(code(() => applyTextEdits('f', text, [edits[0]!, { range: { start: { offset: 8 }, end: { offset: 9 } }, newText: '' }])), 'RangeInvalid');
    assert.equal(code(() => applyTextEdits('f', text, [{ range: { start: { offset: 0 }, end: { offset: 0 } }, newText: '\ud800' }])), 'InvalidArguments');
  });

  test('insertions at one point keep their given order', () => {
    const at = { start: { offset: 1 }, end: { offset: 1 } };
    assert.equal(applyTextEdits('f', 'ac', [{ range: at, newText: 'b' }, { range: at, newText: 'B' }]), 'abBc');
  });

  test('toLineColumn inverts line/column resolution (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), (text, n) => {
        const offset = n % (text.length + 1);
        const starts = lineStarts(text);
        const lc = toLineColumn(starts, offset);
        const lineEnd = starts[lc.line + 1] ?? text.length;
        if (offset >= lineEnd && lc.line + 1 < starts.length) return; // inside a line terminator
        if (text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10) return;
        assert.equal(resolvePosition('f', text.replace(/[\ud800-\udfff]/g, 'x'), lc), offset);
      }),
    );
  });
});

test('clipUtf16 never leaves half a surrogate pair', () => {
  assert.equal(clipUtf16('a😀', 2), 'a');
  assert.equal(clipUtf16('a😀', 3), 'a😀');
  assert.equal(clipUtf16('abc', 2), 'ab');
});
