/**
 * A nesting limit for JSON bodies, checked on the raw bytes before parsing: every recursive walk over
 * a parsed value (schema validation, serialisation, previews) would overflow the stack on the 100,000
 * levels that fit in a small body, and report the caller's bad input as an internal fault.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);

/** True when arrays and objects nest deeper than `maxDepth`; brackets inside strings do not count. */
export function jsonNestingExceeds(body: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i] as number;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPEN.has(byte)) {
      if (++depth > maxDepth) return true;
    } else if (CLOSE.has(byte)) {
      depth--;
    }
  }
  return false;
}
