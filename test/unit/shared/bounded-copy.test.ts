import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedText, ownCopy } from '../../../src-main/shared/bounded-copy.js';
import { cappedJson } from '../../../src-main/shared/json-text.js';
import { collectGarbage } from '../../reliability/scenarios/rss.js';

const BIG = 8 * 1024 * 1024;

/** Heap growth, in MB, while `keep` holds what `make` returns for five different 8 MB strings. */
function retainedMb(make: (big: string) => unknown): number {
  collectGarbage();
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const keep = Array.from({ length: 5 }, (_, n) => make(`${n}${Buffer.alloc(BIG, 'x').toString('latin1')}`));
  collectGarbage();
  collectGarbage();
  const grown = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  assert.equal(keep.length, 5);
  return grown;
}

describe('bounded copies', () => {
  test('a slice keeps its whole source alive; the bounded copies keep only themselves', () => {
    // The control case: the measurement sees retention where V8 has it.
    assert.ok(retainedMb((big) => big.slice(0, 200)) > 30, 'a plain slice retains five 8 MB sources');
    assert.ok(retainedMb((big) => boundedText(big, 200)) < 2);
    // Short text is copied once and looked up after: neither the first copy nor a repeat keeps its source.
    assert.ok(retainedMb((big) => boundedText(big.slice(0, 100), 200)) < 2);
    assert.ok(retainedMb((big) => boundedText(big.slice(0, 100), 200)) < 2);
    assert.ok(retainedMb((big) => ownCopy(big.slice(0, 200))) < 2);
    assert.ok(retainedMb((big) => ownCopy(`${big.slice(0, 20)}…`)) < 2);
    assert.ok(retainedMb((big) => cappedJson({ big }, 64 * 1024).json) < 2);
  });

  test('boundedText keeps short text whole and cuts long text with an ellipsis, lone surrogates intact', () => {
    assert.equal(boundedText('tool-name', 256), 'tool-name');
    assert.equal(boundedText('abcdef', 4), 'abc…');
    assert.equal(boundedText('a\ud800b', 10), 'a\ud800b');
    assert.equal(boundedText('', 0), '');
  });

  test('cappedJson keeps values that fit as their JSON and never lets a preview exceed the cap', () => {
    assert.deepEqual(cappedJson({ a: 1 }, 100), { json: '{"a":1}', truncated: false, bytes: 7 });
    assert.deepEqual(cappedJson(undefined, 100), { json: 'null', truncated: false, bytes: 4 });
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    assert.equal(cappedJson(cycle, 100).json, '"[object Object]"');
    assert.equal(cappedJson(10n, 100).json, '"10"');
    // ASCII, three-byte characters, and characters JSON escapes into two or six bytes.
    for (const filler of ['x', '€', '"', '\u0001', '😀']) {
      const capped = cappedJson({ text: filler.repeat(50_000) }, 4096);
      assert.equal(capped.truncated, true, filler);
      assert.ok(capped.bytes <= 4096, `${JSON.stringify(filler)}: ${capped.bytes} bytes`);
      assert.equal(capped.bytes, Buffer.byteLength(capped.json));
      assert.ok(capped.bytes > 1024, `${JSON.stringify(filler)}: the preview uses most of the room (${capped.bytes} bytes)`);
      const preview = JSON.parse(capped.json) as string;
      assert.ok(preview.startsWith('{"text":"') && preview.endsWith('…'));
    }
  });
});
