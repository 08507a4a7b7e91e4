/**
 * Coalesces the records written to one WebSocket during one event-loop turn into one WebSocket
 * message. The JSON hub protocol ends every record with 0x1E, so a message carrying several records
 * is legal and every SignalR client splits it; one `send` per turn instead of one per record saves a
 * syscall, a frame header and a write callback for each record beyond the first.
 *
 * Records keep their order. A message never exceeds `maxMessageBytes` unless it holds a single
 * record that is larger by itself (sent alone, as it would have been without batching).
 */
import type { WebSocket } from 'ws';
import type { JsonText } from '../../contracts/index.js';
import { writeText } from '../../shared/index.js';

/** Told once the message carrying the record was handed to the socket, or why it never was. */
export type SentCallback = (error?: Error) => void;

/**
 * UTF-8 takes at most 3 bytes per UTF-16 code unit, so `chars * 3` bounds a batch's size without
 * encoding it; a batch is cut at this bound, which for ASCII is a third of the cap and costs nothing
 * measurable (messages that large are rare and already expensive).
 */
const MAX_BYTES_PER_CHAR = 3;

export class OutboundBatch {
  private records: string[] = [];
  private chars = 0;
  private callbacks: SentCallback[] = [];
  private scheduled = false;
  private readonly flushScheduled = (): void => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly socket: WebSocket,
    private readonly maxMessageBytes: number,
  ) {}

  /**
   * Queues `record` for the end of this turn; false (nothing queued) when the socket cannot take data.
   * A record in pieces (long strings) goes at once as a message of its own, after what is queued, one
   * WebSocket fragment per piece (`writeText`): a long string whose ASCII bytes are known goes as those
   * very bytes and any other piece is encoded by the socket write alone, where joining the pieces into
   * one message buffer first held a second copy of a 16 MB argument for as long as the send took.
   * The fragments are sent in one synchronous run, so no other message can come between them.
   */
  write(record: JsonText, sent?: SentCallback): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return false;
    if (typeof record !== 'string') {
      this.flush();
      const fragment = { binary: false, fin: false };
      writeText(
        {
          write: (piece) => this.socket.send(piece, fragment),
          end: (last = '') => (sent ? this.socket.send(last, { binary: false }, (error) => sent(error ?? undefined)) : this.socket.send(last, { binary: false })),
        },
        record,
        true,
      );
      return true;
    }
    if (this.records.length > 0 && (this.chars + record.length) * MAX_BYTES_PER_CHAR > this.maxMessageBytes) this.flush();
    this.records.push(record);
    this.chars += record.length;
    if (sent) this.callbacks.push(sent);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushScheduled);
    }
    return true;
  }

  /** Sends what is queued now (before a close, so the Close record precedes the WebSocket close frame). */
  flush(): void {
    if (this.records.length === 0) return;
    const message = this.records.length === 1 ? this.records[0]! : this.records.join('');
    const callbacks = this.callbacks;
    this.records = [];
    this.chars = 0;
    this.callbacks = [];
    if (this.socket.readyState !== this.socket.OPEN) {
      settle(callbacks, new Error('the WebSocket closed before the message was sent'));
      return;
    }
    if (callbacks.length === 0) this.socket.send(message);
    else this.socket.send(message, (error) => settle(callbacks, error ?? undefined));
  }

  /** Drops what is queued (the socket is gone); waiting writers learn why. */
  discard(error: Error): void {
    const callbacks = this.callbacks;
    this.records = [];
    this.chars = 0;
    this.callbacks = [];
    settle(callbacks, error);
  }
}

function settle(callbacks: readonly SentCallback[], error: Error | undefined): void {
  for (const callback of callbacks) callback(error);
}
