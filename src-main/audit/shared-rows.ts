/**
 * The memory a batch's calls cross to the writer thread in: one JSON array of their rows, written as
 * UTF-8 into a SharedArrayBuffer both threads hold, so a batch is a message of a few numbers. Posting
 * the batch as one string cost a fresh allocation of its size on each side (hundreds of kilobytes in
 * V8's large-object space, page-faulted in every time: about 3 µs a call here); this memory is faulted
 * in once and reused, and the writer binds a view of it. One batch is in flight at a time (the store
 * posts the next after the reply), so the region is never written while it is read.
 */

/** The buffer's usual size; a larger batch grows it, and the next batch that fits this again shrinks it back. */
const USUAL_BYTES = 1024 * 1024;

export class SharedRows {
  private memory = new SharedArrayBuffer(USUAL_BYTES);
  private view = Buffer.from(this.memory);

  /**
   * Writes `[row,row,…]` and returns its length in bytes, and the buffer when it is a new one the
   * writer does not hold yet (the first time, or grown or shrunk for this batch).
   */
  write(rows: readonly string[], fresh: boolean): { bytes: number; memory?: SharedArrayBuffer } {
    // A UTF-16 unit takes at most three bytes in UTF-8: this many always fit.
    let needed = 2 + rows.length;
    for (const row of rows) needed += row.length * 3;
    // Past the usual size, measured exactly: a batch of large previews would otherwise take three times its size.
    if (needed > USUAL_BYTES) needed = rows.reduce((sum, row) => sum + Buffer.byteLength(row, 'utf8'), 2 + rows.length);
    const size = needed > USUAL_BYTES ? needed : USUAL_BYTES;
    let renewed = fresh;
    if (size > this.memory.byteLength || (size === USUAL_BYTES && this.memory.byteLength > USUAL_BYTES)) {
      this.memory = new SharedArrayBuffer(size);
      this.view = Buffer.from(this.memory);
      renewed = true;
    }
    let at = this.view.write('[', 0, 'latin1');
    rows.forEach((row, i) => {
      if (i > 0) at += this.view.write(',', at, 'latin1');
      at += this.view.write(row, at, 'utf8');
    });
    at += this.view.write(']', at, 'latin1');
    return renewed ? { bytes: at, memory: this.memory } : { bytes: at };
  }
}
