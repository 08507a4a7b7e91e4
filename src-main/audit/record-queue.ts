/**
 * The store's queue of records in stored form, oldest first, held in chunks: taking a batch from its
 * front costs the batch, not the queue, which may hold tens of thousands of records while the writer
 * catches up (a single array cost a copy of the rest at every batch). Pure.
 */
import type { StoredRecord } from './rows.js';

export class RecordQueue {
  private chunks: StoredRecord[][] = [];
  private size = 0;

  /** `chunkSize`: records per chunk, the usual batch, so that a batch is usually one chunk taken whole. */
  constructor(private readonly chunkSize: number) {}

  get length(): number {
    return this.size;
  }

  push(record: StoredRecord): void {
    const last = this.chunks[this.chunks.length - 1];
    if (last && last.length < this.chunkSize) last.push(record);
    else this.chunks.push([record]);
    this.size++;
  }

  /** Puts `records` back in front of the queue: they are older than any record in it. */
  putBack(records: StoredRecord[]): void {
    if (records.length === 0) return;
    this.chunks.unshift(records);
    this.size += records.length;
  }

  /** Takes up to `max` records from the front, oldest first. */
  take(max: number): StoredRecord[] {
    let out: StoredRecord[] = [];
    while (out.length < max && this.chunks.length > 0) {
      const chunk = this.chunks[0]!;
      const wanted = max - out.length;
      if (chunk.length <= wanted) {
        this.chunks.shift();
        out = out.length === 0 ? chunk : out.concat(chunk);
      } else out = out.concat(chunk.splice(0, wanted));
    }
    this.size -= out.length;
    return out;
  }

  /** Every queued record, oldest first, leaving the queue as it is. */
  toArray(): StoredRecord[] {
    return this.chunks.flat();
  }
}
