/**
 * How far V8 lets the old generation grow past what its last full collection kept. By default it
 * picks a factor from its collection and allocation speeds, capped at 4 on a 64-bit machine with
 * memory to spare, and under a burst of calls it takes the cap: a live heap of about 24 MB was
 * collected only once the old generation held about 90 MB, most of it per-call objects that had
 * outlived two scavenges and died soon after (measured under bench:bridge's 64-connection load,
 * where that garbage was the largest part of the 220 MB peak).
 *
 * A fixed factor of 2 (heap-growing-percent 100) collects when the old generation has doubled
 * instead: the peak fell from about 222 MB to about 172 MB. The cost is about twice as many full
 * collections under load (marking runs incrementally and on a helper thread); measured in three
 * interleaved rounds of 40,000 calls at 64 connections on a loaded machine, Junction's CPU rose by
 * about 2% in all (4% per /mcp call, none per /api call), inside that machine's round-to-round noise.
 * V8 reads this flag each time it sets the next limit, so setting it at launch takes effect without a
 * command-line flag, and it applies to every isolate in the process (the audit writer thread's too).
 */
import { setFlagsFromString } from 'node:v8';

/** Percent the old generation may grow past the live heap before the next full collection. */
export const HEAP_GROWING_PERCENT = 100;

export function limitOldGenerationGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
