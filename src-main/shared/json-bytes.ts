/**
 * JSON read from the bytes it arrived as (an HTTP body, a hub message). `JSON.parse(bytes.toString())`
 * copies a 16 MB string twice: into the decoded text, and out of it into the parsed value, each copy
 * a fresh 16 MB of memory to fault in (about 60 ms apiece on this machine). A long string literal
 * without escapes is instead decoded once, straight from its bytes, while the parser reads the rest.
 */
import { isAscii } from 'node:buffer';
import { LEAF_CHARS, markUnescaped, STAND_IN, STAND_IN_TEXT } from './json-text.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * Where the JSON string whose text starts at `from` ends (its closing quote), or -1 when it never does;
 * for text or its UTF-8 bytes alike (a quote and a backslash are single ASCII units in both). A quote
 * closes it when an even number of backslashes precede it, each pair being one escaped backslash.
 * Found with the native search, so a megabyte string is crossed at memory speed.
 */
export function jsonStringEnd(json: string | Buffer, from: number): number {
  // Branches rather than helper closures: this runs once per string literal of a scanned text.
  const isText = typeof json === 'string';
  for (let quote = isText ? json.indexOf('"', from) : json.indexOf(QUOTE, from); quote !== -1; quote = isText ? json.indexOf('"', quote + 1) : json.indexOf(QUOTE, quote + 1)) {
    let before = quote - 1;
    while (before >= from && (isText ? json.charCodeAt(before) : json[before]) === BACKSLASH) before--;
    if ((quote - before - 1) % 2 === 0) return quote;
  }
  return -1;
}

/** String literals looked at for a long one (and in all) before reading the body the plain way: a body of many small values gains nothing. */
const LITERAL_BUDGET = 1024;

/** JSON's white space between tokens, as a byte or a UTF-16 unit. */
export const isJsonSpace = (unit: number | undefined) => unit === 0x20 || unit === 0x0a || unit === 0x0d || unit === 0x09;

/** A long string value's text, as byte offsets between its quotes, and whether its bytes are ASCII (once decoded). */
interface Hole {
  start: number;
  end: number;
  ascii?: boolean;
}

/**
 * The string values of LEAF_CHARS bytes or more without a backslash, or undefined when there are none
 * among the first LITERAL_BUDGET literals or the text ends inside a string. Keys are never taken.
 */
function longStrings(bytes: Buffer): Hole[] | undefined {
  const holes: Hole[] = [];
  let literals = 0;
  for (let open = bytes.indexOf(QUOTE); open !== -1; open = bytes.indexOf(QUOTE, open + 1)) {
    const close = jsonStringEnd(bytes, open + 1);
    if (close === -1) return undefined;
    if (close - open - 1 >= LEAF_CHARS && bytes.subarray(open + 1, close).indexOf(BACKSLASH) === -1) {
      let after = close + 1;
      while (isJsonSpace(bytes[after])) after++;
      if (bytes[after] !== COLON) holes.push({ start: open + 1, end: close });
    }
    literals++;
    if ((literals >= LITERAL_BUDGET && holes.length === 0) || literals >= 16 * LITERAL_BUDGET) return undefined;
    open = close;
  }
  return holes.length > 0 ? holes : undefined;
}

/**
 * The characters of `bytes[start, end)`: for ASCII (base64, most text) the `ascii` decoder, which yields
 * the same characters and is several times faster than `utf8`'s over a megabyte (0.2 against 6 ms).
 * From about 1 MB on Node makes that an external string, which only a full collection frees; the idle
 * heap (app/runtime/idle-heap.ts) counts it.
 */
function decode(bytes: Buffer, hole: Hole): string {
  hole.ascii = isAscii(bytes.subarray(hole.start, hole.end));
  return bytes.toString(hole.ascii ? 'ascii' : 'utf8', hole.start, hole.end);
}

/** What JSON refuses raw inside a string; found in a long string's text, the whole body is parsed so the parser says where. */
// eslint-disable-next-line no-control-regex -- JSON strings may not hold raw U+0000 to U+001F; this finds them.
const RAW_CONTROL = /[\u0000-\u001f]/;

/**
 * `JSON.parse(bytes.toString('utf8', start))`, value for value and refusal for refusal, with each long
 * string without escapes decoded once from its bytes. Every boundary sits at a quote, an ASCII byte,
 * so decoding the pieces yields exactly the characters decoding the whole would. Anything the parser
 * must judge (a raw control character in a long string, a mismatch of the stand-ins) falls back to
 * parsing the whole text, which also gives the parser's own message for a refusal.
 */
export function parseJsonBytes(bytes: Buffer, start = 0): unknown {
  const body = start === 0 ? bytes : bytes.subarray(start);
  const holes = body.length >= LEAF_CHARS ? longStrings(body) : undefined;
  if (holes) {
    const strings = holes.map((hole) => decode(body, hole));
    if (!strings.some((text) => RAW_CONTROL.test(text))) {
      const parsed = parseWithStandIns(body, holes, strings);
      if (parsed.ok) return parsed.value;
    }
  }
  return JSON.parse(body.toString('utf8'));
}

function parseWithStandIns(body: Buffer, holes: readonly Hole[], strings: readonly string[]): { ok: true; value: unknown } | { ok: false } {
  let text = '';
  let from = 0;
  holes.forEach(({ start, end }, index) => {
    text += `${body.toString('utf8', from, start)}${STAND_IN_TEXT}${index}`;
    from = end;
  });
  text += body.toString('utf8', from);
  let filled = 0;
  let value: unknown;
  try {
    value = JSON.parse(text, function (this: object, key: string, item: unknown) {
      if (typeof item !== 'string' || !item.startsWith(STAND_IN)) return item;
      const index = Number(item.slice(STAND_IN.length));
      const hole = Number.isInteger(index) && `${STAND_IN}${index}` === item ? strings[index] : undefined;
      if (hole === undefined) return item;
      filled++;
      // Read without a backslash or a control character, and decoded from UTF-8 (no lone surrogate): JSON
      // writes it as it is, and when its bytes are ASCII, they are exactly its UTF-8.
      const { start, end, ascii } = holes[index]!;
      markUnescaped(this, key, hole, ascii ? body.subarray(start, end) : undefined);
      return hole;
    });
  } catch {
    return { ok: false };
  }
  return filled === holes.length ? { ok: true, value } : { ok: false };
}
