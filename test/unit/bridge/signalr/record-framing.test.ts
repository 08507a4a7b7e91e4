import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeRecord, oversizedSummary, RecordSplitter, type OversizedRecord } from '../../../../src-main/bridge/signalr/record-framing.js';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');

describe('RecordSplitter', () => {
  test('splits several records in one chunk and keeps an unfinished tail', () => {
    const splitter = new RecordSplitter(1024);
    assert.deepEqual(splitter.push(bytes('{"a":1}\u001e{"b":2}\u001e{"c"')), ['{"a":1}', '{"b":2}']);
    assert.equal(splitter.bufferedBytes, 4);
    assert.deepEqual(splitter.push(bytes(':3}\u001e')), ['{"c":3}']);
    assert.equal(splitter.bufferedBytes, 0);
  });

  test('a record split inside a multi-byte character is reassembled intact', () => {
    const whole = bytes('{"text":"héllo ✓ 😀"}\u001e');
    const splitter = new RecordSplitter(1024);
    const results = [...whole].map((b) => splitter.push(Uint8Array.of(b)));
    const records = results.flat();
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
          for (const record of splitter.push(stream.subarray(at, end))) {
            assert.equal(typeof record, 'string');
            out.push(record as string);
          }
          at = end;
        }
        assert.deepEqual(out, clean);
      }),
    );
  });

  test('skips a record that grows past the limit, whether complete or still arriving, and keeps the stream in step', () => {
    const over = (records: unknown[]) => records.map((r) => (typeof r === 'string' ? r : (r as OversizedRecord).bytes));
    assert.deepEqual(over(new RecordSplitter(4).push(bytes('12345\u001e'))), [5]);
    assert.deepEqual(new RecordSplitter(4).push(bytes('1234\u001e')), ['1234']);
    const spanning = new RecordSplitter(4);
    assert.deepEqual(spanning.push(bytes('123')), []);
    assert.deepEqual(spanning.push(bytes('45')), []);
    assert.deepEqual(over(spanning.push(bytes('67\u001eok\u001e'))), [7, 'ok']);
    const completing = new RecordSplitter(4);
    completing.push(bytes('123'));
    assert.deepEqual(over(completing.push(bytes('45\u001e'))), [5]);
    // Before and after a skipped record, in the same chunk.
    assert.deepEqual(over(new RecordSplitter(4).push(bytes('a\u001e123456789\u001eb\u001e'))), ['a', 9, 'b']);
  });

  test('a skipped record keeps only its edges, however large it grows', () => {
    const splitter = new RecordSplitter(16);
    splitter.push(bytes(`{"type":3,"invocationId":"7","result":"`));
    for (let i = 0; i < 200; i++) splitter.push(bytes('x'.repeat(10_000)));
    assert.ok(splitter.bufferedBytes <= 2048, `holds ${splitter.bufferedBytes} bytes`);
    const [skipped] = splitter.push(bytes('"}\u001e')) as [OversizedRecord];
    assert.equal(skipped.bytes, 39 + 2_000_000 + 2);
    assert.deepEqual(oversizedSummary(skipped), { type: 3, invocationId: '7' });
  });

  test('the type, invocation id and target of a skipped record are read from its start or its end', () => {
    const skip = (record: string): OversizedRecord => new RecordSplitter(64).push(bytes(`${record}\u001e`))[0] as OversizedRecord;
    const big = 'z'.repeat(5000);
    // .NET's JSON hub protocol writes them first.
    assert.deepEqual(oversizedSummary(skip(`{"type":3,"invocationId":"12","result":{"Value":"${big}"}}`)), { type: 3, invocationId: '12' });
    assert.deepEqual(oversizedSummary(skip(`{"type":1,"invocationId":"3","target":"NotifyToolRequestCompleted","arguments":[{"RequestId":"r-9","Result":"${big}"}]}`)), {
      type: 1,
      invocationId: '3',
      target: 'NotifyToolRequestCompleted',
      requestId: 'r-9',
    });
    // The JavaScript client writes the payload first.
    assert.deepEqual(oversizedSummary(skip(`{"invocationId":"5","result":"${big}","type":3}`)), { type: 3, invocationId: '5' });
    assert.deepEqual(oversizedSummary(skip(`{"arguments":["${big}"],"invocationId":"8","target":"Echo","type":1}`)), { type: 1, invocationId: '8', target: 'Echo' });
    // Text inside a string cannot pose as a field: its quotes are escaped.
    assert.deepEqual(oversizedSummary(skip(`{"result":"{\\"type\\":1,\\"invocationId\\":\\"99\\"}${big}"}`)), {});
  });

  test('encodeRecord terminates JSON with the record separator', () => {
    assert.equal(encodeRecord({ type: 6 }), '{"type":6}\u001e');
  });
});

describe('large records', () => {
  test('a record of 64 K bytes or more comes out as its bytes, parsed exactly as its text would be, byte order mark included', async () => {
    const { parseClientMessage } = await import('../../../../src-main/bridge/signalr/hub-messages.js');
    const { LEAF_CHARS } = await import('../../../../src-main/shared/index.js');
    const data = 'QUJD'.repeat(LEAF_CHARS / 2);
    const message = { type: 3, invocationId: '4', result: { content: [{ type: 'image', data, mimeType: 'image/png' }] } };
    for (const prefix of ['', '\ufeff']) {
      const text = `${prefix}${JSON.stringify(message)}`;
      const [record] = new RecordSplitter(1 << 20).push(bytes(`${text}\u001e`));
      assert.ok(Buffer.isBuffer(record));
      assert.deepStrictEqual(parseClientMessage(record), { ok: true, value: message });
    }
    const [broken] = new RecordSplitter(1 << 20).push(bytes(`{"type":3,"invocationId":"5","result":"${data}"\u001e`));
    assert.deepStrictEqual(parseClientMessage(broken as Buffer), { ok: false, error: 'message is not valid JSON' });
  });
});
