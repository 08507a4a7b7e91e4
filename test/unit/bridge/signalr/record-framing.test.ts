import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeRecord, RecordSplitter } from '../../../../src-main/bridge/signalr/record-framing.js';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');

describe('RecordSplitter', () => {
  test('splits several records in one chunk and keeps an unfinished tail', () => {
    const splitter = new RecordSplitter(1024);
    assert.deepEqual(splitter.push(bytes('{"a":1}\u001e{"b":2}\u001e{"c"')), { ok: true, records: ['{"a":1}', '{"b":2}'] });
    assert.equal(splitter.bufferedBytes, 4);
    assert.deepEqual(splitter.push(bytes(':3}\u001e')), { ok: true, records: ['{"c":3}'] });
    assert.equal(splitter.bufferedBytes, 0);
  });

  test('a record split inside a multi-byte character is reassembled intact', () => {
    const whole = bytes('{"text":"héllo ✓ 😀"}\u001e');
    const splitter = new RecordSplitter(1024);
    const results = [...whole].map((b) => splitter.push(Uint8Array.of(b)));
    const records = results.flatMap((r) => (r.ok ? r.records : []));
    assert.deepEqual(records, ['{"text":"héllo ✓ 😀"}']);
  });

  test('any chunking of a byte stream yields the same records', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 20 }), { maxLength: 8 }), fc.array(fc.nat({ max: 60 }), { maxLength: 10 }), (texts, cuts) => {
        const clean = texts.map((t) => t.replaceAll('\u001e', ''));
        const stream = bytes(clean.map((t) => `${t}\u001e`).join(''));
        const splitter = new RecordSplitter(10_000);
        const out: string[] = [];
        let at = 0;
        for (const cut of [...cuts, stream.length]) {
          const end = Math.min(stream.length, at + cut);
          const result = splitter.push(stream.subarray(at, end));
          assert.ok(result.ok);
          out.push(...result.records);
          at = end;
        }
        assert.deepEqual(out, clean);
      }),
    );
  });

  test('refuses a record that grows past the limit, whether complete or still arriving', () => {
    assert.deepEqual(new RecordSplitter(4).push(bytes('12345\u001e')), { ok: false, recordBytes: 5 });
    assert.deepEqual(new RecordSplitter(4).push(bytes('1234\u001e')), { ok: true, records: ['1234'] });
    const spanning = new RecordSplitter(4);
    assert.deepEqual(spanning.push(bytes('123')), { ok: true, records: [] });
    assert.deepEqual(spanning.push(bytes('45')), { ok: false, recordBytes: 5 });
    const completing = new RecordSplitter(4);
    completing.push(bytes('123'));
    assert.deepEqual(completing.push(bytes('45\u001e')), { ok: false, recordBytes: 5 });
  });

  test('encodeRecord terminates JSON with the record separator', () => {
    assert.equal(encodeRecord({ type: 6 }), '{"type":6}\u001e');
  });
});
