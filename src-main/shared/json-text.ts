/**
 * JSON text in pieces. `JSON.stringify` copies every string of a value into a text of its own, which V8
 * keeps as a tree of 16 K-character chunks and copies once more, whole, the first time anything reads
 * it flat (a byte count, a regular expression, a socket write). For a 16 MB screenshot that is two
 * copies, twice per call (the dispatcher's JSON of the result, the transport's answer around it),
 * besides the one the socket write makes. Here a string of LEAF_CHARS or more that JSON writes as it is
 * (nothing to escape) stays itself: the text is kept as the JSON around such strings and the strings
 * between, and whoever writes, counts, searches or previews it reads the pieces one by one.
 */
import { randomBytes } from 'node:crypto';
import type { JsonLeaf, JsonPieces, JsonText } from '../contracts/index.js';
import { isBase64Checked } from './base64.js';

/** Strings at least this long that need no escaping become pieces of their own. */
export const LEAF_CHARS = 64 * 1024;

/**
 * What JSON.stringify may write otherwise than as itself: a quote, a backslash, a control character (it
 * escapes those below U+0020; the rest of the class only costs a string its piece), a lone surrogate.
 */
const NEEDS_ESCAPE = /["\\\p{Cc}\p{Cs}]/u;

/** Values looked at for a long string before giving up: a result's content blocks, a tool's arguments; not a big document. */
const LOOK_BUDGET = 512;

/** Whether `value` holds a string of LEAF_CHARS or more within the first LOOK_BUDGET values, looked for as JSON.stringify would reach them. */
function holdsLongString(value: unknown): boolean {
  const pending: unknown[] = [value];
  for (let looked = 0; pending.length > 0 && looked < LOOK_BUDGET; looked++) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.length >= LEAF_CHARS) return true;
    } else if (typeof next === 'object' && next !== null) {
      for (const key of Object.keys(next)) pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/**
 * Stands in for each long string, followed by its number, while JSON.stringify writes the rest
 * (here) or JSON.parse reads it (shared/json-bytes.ts): one character JSON escapes and no raw byte can
 * be (`\u0000`), then a per-process random tag no input can guess. `STAND_IN_TEXT` is how it is written in JSON.
 */
export const STAND_IN = `\u0000${randomBytes(12).toString('hex')}:`;
export const STAND_IN_TEXT = JSON.stringify(STAND_IN).slice(1, -1);

const isPieces = (text: JsonText): text is JsonPieces => typeof text !== 'string';

/** A long string known to need no escaping, and the ASCII bytes it was decoded from, if known. */
interface Unescaped {
  text: string;
  bytes: Uint8Array | undefined;
}

/**
 * Long strings known to need no escaping, by the object and key they were read into (a body's JSON
 * parsed from its bytes: shared/json-bytes.ts), so writing them again does not search them, and, when
 * their bytes were ASCII, writes those bytes instead of encoding the string again. Kept with the string
 * itself and compared with it (the same string is one pointer comparison), so a property given another
 * value since is searched like any other.
 */
const knownUnescaped = new WeakMap<object, Map<string, Unescaped>>();

/** Remembers that `holder[key]`, `text`, needs no escaping in JSON, and that `bytes` (ASCII) are its UTF-8. */
export function markUnescaped(holder: object, key: string, text: string, bytes?: Uint8Array): void {
  let known = knownUnescaped.get(holder);
  if (!known) knownUnescaped.set(holder, (known = new Map()));
  known.set(key, { text, bytes });
}

/** What JSON.stringify would write `text`, found at `holder[key]`, as: a leaf of its own, or undefined when it must be escaped. */
function leafOf(holder: unknown, key: string, text: string): JsonLeaf | undefined {
  const element = Array.isArray(holder);
  if (typeof holder === 'object' && holder !== null) {
    const known = knownUnescaped.get(holder)?.get(key);
    if (known?.text === text) return known.bytes ? { key: element ? undefined : key, bytes: known.bytes } : { key: element ? undefined : key };
    if (key === 'data' && isBase64Checked(holder)) return { key };
  }
  return NEEDS_ESCAPE.test(text) ? undefined : { key: element ? undefined : key };
}

/**
 * `JSON.stringify(value)`, as pieces when it holds a string of LEAF_CHARS or more that needs no
 * escaping, else as one string; it throws what JSON.stringify throws (a cycle, a BigInt) and is
 * undefined where that is. A data string of an image or audio block already found to be base64, and a
 * string read from bytes without escapes (`markUnescaped`), is not searched for characters to escape. Exactly the same text in both forms: where the markers
 * cannot be matched up one to one, the value is written as one string.
 */
export function stringifyInPieces(value: unknown): JsonText | undefined {
  if (!holdsLongString(value)) return JSON.stringify(value);
  const strings: string[] = [];
  const leaves: JsonLeaf[] = [];
  const skeleton = JSON.stringify(value, function (this: unknown, key: string, item: unknown) {
    if (typeof item !== 'string' || item.length < LEAF_CHARS) return item;
    const leaf = leafOf(this, key, item);
    if (!leaf) return item;
    leaves.push(leaf);
    return `${STAND_IN}${strings.push(item) - 1}`;
  }) as string | undefined;
  if (skeleton === undefined || strings.length === 0) return skeleton;
  const parts: string[] = [];
  let from = 0;
  for (let index = 0; index < strings.length; index++) {
    const marker = `${STAND_IN_TEXT}${index}"`;
    const at = skeleton.indexOf(marker, from);
    if (at === -1) return JSON.stringify(value);
    parts.push(skeleton.slice(from, at), strings[index]!);
    from = at + marker.length - 1;
  }
  if (skeleton.includes(STAND_IN_TEXT, from)) return JSON.stringify(value);
  parts.push(skeleton.slice(from));
  return { parts, leaves };
}

/** `jsonText` in pieces (`stringifyInPieces`): `null` for a value without JSON, the string form of one that has none (a cycle). */
export function jsonTextOf(value: unknown): JsonText {
  try {
    return stringifyInPieces(value) ?? 'null';
  } catch {
    return jsonText(value);
  }
}

/** The ASCII bytes known for part `index` of a text in pieces (a long string's), if any. */
const knownBytes = (text: JsonPieces, index: number): Uint8Array | undefined => (index % 2 === 1 ? text.leaves[(index - 1) / 2]!.bytes : undefined);

/** The text as one string (a copy of the pieces: for what must have it whole, such as a parser). */
export function flatText(text: JsonText): string {
  return isPieces(text) ? text.parts.join('') : text;
}

/** Length in UTF-16 code units. */
export function textLength(text: JsonText): number {
  return isPieces(text) ? text.parts.reduce((n, part) => n + part.length, 0) : text.length;
}

/** Byte sizes of texts in pieces, which the dispatcher, the console and the audit trail each ask for (counting 16 MB takes about 10 ms). */
const byteLengths = new WeakMap<JsonPieces, number>();

/** Size in UTF-8 bytes, counted piece by piece (once per text in pieces). */
export function textByteLength(text: JsonText): number {
  if (!isPieces(text)) return Buffer.byteLength(text, 'utf8');
  let bytes = byteLengths.get(text);
  if (bytes === undefined) {
    bytes = text.parts.reduce((n, part, index) => n + (knownBytes(text, index)?.length ?? Buffer.byteLength(part, 'utf8')), 0);
    byteLengths.set(text, bytes);
  }
  return bytes;
}

/** The first `chars` code units (all of a shorter text), read from the pieces it spans. */
export function textPrefix(text: JsonText, chars: number): string {
  if (!isPieces(text)) return text.slice(0, chars);
  let prefix = '';
  for (const part of text.parts) {
    if (prefix.length + part.length >= chars) return prefix + part.slice(0, chars - prefix.length);
    prefix += part;
  }
  return prefix;
}

/** The texts one after the other, keeping the pieces (one string when none is in pieces). */
export function concatText(...texts: readonly JsonText[]): JsonText {
  if (!texts.some(isPieces)) return texts.join('');
  const parts: string[] = [''];
  const leaves: JsonLeaf[] = [];
  for (const text of texts) {
    const [first, ...rest] = textParts(text);
    parts[parts.length - 1] += first!;
    parts.push(...rest);
    if (isPieces(text)) leaves.push(...text.leaves);
  }
  return { parts, leaves };
}

/** `text` without its last `chars` code units, followed by `replacement` (which the JSON after the last long string must cover). */
export function replaceEnd(text: JsonText, chars: number, replacement: string): JsonText {
  if (!isPieces(text)) return `${text.slice(0, -chars)}${replacement}`;
  const last = text.parts.at(-1)!;
  if (last.length < chars) return `${flatText(text).slice(0, -chars)}${replacement}`;
  return { parts: [...text.parts.slice(0, -1), `${last.slice(0, -chars)}${replacement}`], leaves: text.leaves };
}

/** Whether the text starts with `prefix`. */
export const textStartsWith = (text: JsonText, prefix: string): boolean => textPrefix(text, prefix.length) === prefix;

/** Each piece of the text, in order (the JSON between long strings and the long strings). */
export function textParts(text: JsonText): readonly string[] {
  return isPieces(text) ? text.parts : [text];
}

/**
 * Writes the text to a stream piece by piece, so no piece is copied into a larger string first, and a
 * long string whose ASCII bytes are known as those bytes, which a socket takes without encoding them;
 * ends the stream when asked.
 */
export function writeText(out: { write(chunk: string | Uint8Array): unknown; end(chunk?: string): unknown }, text: JsonText, end = false): void {
  if (isPieces(text)) {
    const { parts } = text;
    for (let i = 0; i < parts.length - 1; i++) out.write(knownBytes(text, i) ?? parts[i]!);
    text = parts.at(-1)!;
  }
  if (end) out.end(text);
  else out.write(text);
}

export interface CappedJson {
  /** JSON text of the value, or of a string preview of it. */
  json: string;
  truncated: boolean;
  /** UTF-8 size of `json`, at most the cap. */
  bytes: number;
}

/**
 * A bounded copy of a value as JSON text: the value's own JSON when it fits in `maxBytes`, else a JSON
 * string holding the start of that JSON, at most `maxBytes` in all. Text rather than the value, whose
 * object graph would take several times its JSON size on the heap: what is kept is what is counted.
 */
export function cappedJson(value: unknown, maxBytes: number): CappedJson {
  return cappedJsonText(jsonText(value), maxBytes);
}

/** JSON text for any value: `null` for a value without JSON of its own (undefined, a function). */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    // Cycles and BigInts have no JSON; their string form, as a JSON string, stands in for them.
    return JSON.stringify(String(value));
  }
}

/**
 * `cappedJson` for a value already serialised: the JSON text itself when it fits (whole, if it came in
 * pieces), else a JSON string preview of its start, read from the pieces it spans.
 */
export function cappedJsonText(text: JsonText, maxBytes: number): CappedJson {
  // JSON text fits when even three UTF-8 bytes per UTF-16 unit would; only longer text is measured.
  if (textLength(text) * 3 <= maxBytes) return { json: flatText(text), truncated: false, bytes: textByteLength(text) };
  const bytes = textByteLength(text);
  if (bytes <= maxBytes) return { json: flatText(text), truncated: false, bytes };
  // Start at one byte per unit and shrink in proportion until the escaped preview fits (once for ASCII).
  let keep = Math.floor(maxBytes / 2);
  for (;;) {
    // The stringified preview is a new flat string: it keeps nothing of `text` alive.
    const json = JSON.stringify(`${textPrefix(text, keep)}…`);
    const size = Buffer.byteLength(json, 'utf8');
    if (size <= maxBytes || keep === 0) return { json, truncated: true, bytes: size };
    keep = Math.max(0, Math.min(keep - 1, Math.floor((keep * maxBytes) / size) - 1));
  }
}
