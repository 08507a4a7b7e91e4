/**
 * A nesting limit for JSON bodies, checked on the raw bytes before parsing: every recursive walk over
 * a parsed value (schema validation, serialisation, previews) would overflow the stack on the 100,000
 * levels that fit in a small body, and report the caller's bad input as an internal fault.
 */
import { jsonStringEnd } from '../../shared/index.js';

const QUOTE = 0x22;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** True when arrays and objects nest deeper than `maxDepth`; brackets inside strings do not count. */
export function jsonNestingExceeds(body: Buffer, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (byte === QUOTE) {
      i = jsonStringEnd(body, i + 1);
      // An unterminated string nests nothing further; the parser refuses the body.
      if (i === -1) return false;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}
