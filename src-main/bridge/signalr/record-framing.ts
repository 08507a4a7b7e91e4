/**
 * SignalR text framing: every JSON record (handshake or hub message) ends with the ASCII record
 * separator 0x1E. A WebSocket message may carry several records, and a record may span messages.
 * Splitting works on bytes: 0x1E never occurs inside a multi-byte UTF-8 sequence, so a byte split
 * never cuts a character and record sizes are measured exactly in bytes. Nor does it occur inside a
 * JSON text (a string must escape it), so after a record over the limit the stream is still in step:
 * that record is skipped, not the connection.
 */
import type { JsonText } from '../../contracts/index.js';
import { concatText, LEAF_CHARS, stringifyInPieces } from '../../shared/index.js';

export const RECORD_SEPARATOR = '\u001e';
const SEPARATOR_BYTE = 0x1e;
/** Bytes kept from each end of a record over the limit, enough to find its type and invocation id. */
const EDGE_BYTES = 1024;

export function encodeRecord(message: unknown): string {
  return JSON.stringify(message) + RECORD_SEPARATOR;
}

/**
 * `encodeRecord` for a message that may carry long strings (a tool call's arguments): its JSON in
 * pieces (shared/json-text.ts), so the strings are encoded once, straight into the WebSocket message,
 * instead of being serialised into a string of the record, flattened and then encoded. Throws what
 * JSON.stringify throws.
 */
export function encodeRecordText(message: unknown): JsonText {
  return concatText(stringifyInPieces(message) ?? 'null', RECORD_SEPARATOR);
}

/** A record over the limit: its size, and its first and last bytes as text (see `oversizedSummary`). */
export interface OversizedRecord {
  readonly oversized: true;
  readonly bytes: number;
  readonly head: string;
  readonly tail: string;
}

/**
 * A record: its text, or for one of LEAF_CHARS bytes or more its bytes, which the hub parses without
 * decoding them whole first (shared/json-bytes.ts), or what is known of one over the limit.
 */
export type SplitRecord = string | Buffer | OversizedRecord;

export class RecordSplitter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Set while a record over the limit is being skipped: its head is kept, the rest only counted. */
  private skipping: { head: Uint8Array; tail: Uint8Array; bytes: number } | undefined;
  private readonly decoder = new TextDecoder('utf-8');

  /** @param maxRecordBytes a record larger than this is not kept: it comes out as an OversizedRecord. */
  constructor(private readonly maxRecordBytes: number) {}

  /** Appends one chunk and returns the records it completed, in order. */
  push(chunk: Uint8Array): SplitRecord[] {
    const records: SplitRecord[] = [];
    let start = 0;
    for (let end = chunk.indexOf(SEPARATOR_BYTE); end !== -1; end = chunk.indexOf(SEPARATOR_BYTE, start)) {
      const piece = chunk.subarray(start, end);
      if (this.skipping || this.pendingBytes + piece.length > this.maxRecordBytes) {
        this.skip(piece);
        records.push(this.finishSkipped());
      } else {
        records.push(this.complete(piece));
      }
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.skipping || this.pendingBytes + rest.length > this.maxRecordBytes) this.skip(rest);
      else {
        this.pending.push(rest);
        this.pendingBytes += rest.length;
      }
    }
    return records;
  }

  /** Bytes held for a record whose separator has not arrived yet (a skipped record holds only its edges). */
  get bufferedBytes(): number {
    return this.skipping ? this.skipping.head.length + this.skipping.tail.length : this.pendingBytes;
  }

  private complete(tail: Uint8Array): string | Buffer {
    let whole: Uint8Array = tail;
    if (this.pending.length > 0) {
      whole = Buffer.concat([...this.pending, tail]);
      this.pending = [];
      this.pendingBytes = 0;
    }
    return whole.length >= LEAF_CHARS ? Buffer.from(whole.buffer, whole.byteOffset, whole.length) : this.decoder.decode(whole);
  }

  /** Counts `piece` into the record being skipped (starting it from what was pending, if need be). */
  private skip(piece: Uint8Array): void {
    if (!this.skipping) {
      const started = Buffer.concat(this.pending);
      this.skipping = { head: started.subarray(0, EDGE_BYTES), tail: started.subarray(Math.max(0, started.length - EDGE_BYTES)), bytes: started.length };
      this.pending = [];
      this.pendingBytes = 0;
    }
    const skipping = this.skipping;
    if (skipping.head.length < EDGE_BYTES) skipping.head = Buffer.concat([skipping.head, piece.subarray(0, EDGE_BYTES - skipping.head.length)]);
    skipping.tail = piece.length >= EDGE_BYTES ? Uint8Array.from(piece.subarray(piece.length - EDGE_BYTES)) : Buffer.concat([skipping.tail, piece]).subarray(-EDGE_BYTES);
    skipping.bytes += piece.length;
  }

  private finishSkipped(): OversizedRecord {
    const { head, tail, bytes } = this.skipping!;
    this.skipping = undefined;
    // A cut may fall inside a character: the replacement character is harmless for what is read from them.
    return { oversized: true, bytes, head: new TextDecoder('utf-8').decode(head), tail: new TextDecoder('utf-8').decode(tail) };
  }
}

/** The edges `oversizedSummary` reads, of a record held whole (one that did not parse). */
export function edgesOf(record: string | Buffer): Pick<OversizedRecord, 'head' | 'tail'> {
  if (typeof record === 'string') return { head: record.slice(0, EDGE_BYTES), tail: record.slice(-EDGE_BYTES) };
  const decoder = new TextDecoder('utf-8');
  return { head: decoder.decode(record.subarray(0, EDGE_BYTES)), tail: decoder.decode(record.subarray(-EDGE_BYTES)) };
}

/** A record's text, decoded as the splitter decodes the records it gives as text. */
export const recordText = (record: string | Buffer): string => (typeof record === 'string' ? record : new TextDecoder('utf-8').decode(record));

/** What can be told of a record over the limit (or one that does not parse) without reading it whole. */
export interface OversizedSummary {
  type?: number;
  invocationId?: string;
  target?: string;
  /** McpPlugin's request id inside the arguments (NotifyToolRequestCompleted's `RequestId`), when it shows. */
  requestId?: string;
}

const STRING = '"((?:[^"\\\\]|\\\\.)*)"';
/** A top-level-looking key: preceded by `{` or `,`, which inside a JSON string would be followed by `\"`, not `"`. */
const field = (name: string, value: string) => new RegExp(`[{,]\\s*"${name}"\\s*:\\s*${value}`, 'g');

function lastMatch(text: string, pattern: RegExp): string | undefined {
  let found: string | undefined;
  for (const match of text.matchAll(pattern)) found = match[1];
  return found;
}

function firstMatch(text: string, pattern: RegExp): string | undefined {
  return pattern.exec(text)?.[1];
}

/**
 * Reads the message type, invocation id and target from an oversized record's edges. Writers put
 * them first (.NET's JSON hub protocol) or last (the JavaScript client writes `arguments` or `result`
 * before them), so the head is read first and the tail second; a value that is only in the middle
 * stays unknown.
 */
export function oversizedSummary(record: Pick<OversizedRecord, 'head' | 'tail'>): OversizedSummary {
  const pick = (name: string, value: string): string | undefined =>
    firstMatch(record.head, new RegExp(field(name, value).source)) ?? lastMatch(record.tail, field(name, value));
  const type = pick('type', '(\\d+)');
  const invocationId = pick('invocationId', STRING);
  const target = pick('target', STRING);
  const requestId = firstMatch(record.head, new RegExp(`"RequestI[dD]"\\s*:\\s*${STRING}`, 'i'));
  return {
    ...(type === undefined ? {} : { type: Number(type) }),
    ...(invocationId === undefined ? {} : { invocationId: JSON.parse(`"${invocationId}"`) as string }),
    ...(target === undefined ? {} : { target: JSON.parse(`"${target}"`) as string }),
    ...(requestId === undefined ? {} : { requestId: JSON.parse(`"${requestId}"`) as string }),
  };
}
