/**
 * SignalR text framing: every JSON record (handshake or hub message) ends with the ASCII record
 * separator 0x1E. A WebSocket message may carry several records, and a record may span messages.
 * Splitting works on bytes: 0x1E never occurs inside a multi-byte UTF-8 sequence, so a byte split
 * never cuts a character and record sizes are measured exactly in bytes.
 */
export const RECORD_SEPARATOR = '\u001e';
const SEPARATOR_BYTE = 0x1e;

export function encodeRecord(message: unknown): string {
  return JSON.stringify(message) + RECORD_SEPARATOR;
}

/** `recordBytes` on failure is the size reached so far by the offending record (it may be larger still). */
export type SplitResult = { ok: true; records: string[] } | { ok: false; recordBytes: number };

export class RecordSplitter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private readonly decoder = new TextDecoder('utf-8');

  /** @param maxRecordBytes no record, complete or still arriving, may be larger than this. */
  constructor(private readonly maxRecordBytes: number) {}

  /** Appends one chunk and returns the records it completed, or a failure once any record is too large. */
  push(chunk: Uint8Array): SplitResult {
    const records: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(SEPARATOR_BYTE); end !== -1; end = chunk.indexOf(SEPARATOR_BYTE, start)) {
      const recordBytes = this.pendingBytes + (end - start);
      if (recordBytes > this.maxRecordBytes) return { ok: false, recordBytes };
      records.push(this.complete(chunk.subarray(start, end)));
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pendingBytes += rest.length;
      if (this.pendingBytes > this.maxRecordBytes) return { ok: false, recordBytes: this.pendingBytes };
      this.pending.push(rest);
    }
    return { ok: true, records };
  }

  /** Bytes held for a record whose separator has not arrived yet. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  private complete(tail: Uint8Array): string {
    if (this.pending.length === 0) return this.decoder.decode(tail);
    const whole = Buffer.concat([...this.pending, tail]);
    this.pending = [];
    this.pendingBytes = 0;
    return this.decoder.decode(whole);
  }
}
