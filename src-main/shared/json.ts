export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema document as published in an MCP tool descriptor (root must be an object schema). */
export type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

/**
 * Whether `value`'s enumerable keys are exactly `keys`, in that order: an object a schema would copy
 * key for key into the same JSON (checked without making an array of its keys).
 */
export function keysAre(value: object, keys: readonly string[]): boolean {
  let index = 0;
  for (const key in value) if (key !== keys[index++]) return false;
  return index === keys.length;
}

/** Any surrogate code unit, paired or not (no `u` flag: the class matches single code units). */
const SURROGATE = /[\ud800-\udfff]/;

/** True when the string holds an unpaired UTF-16 surrogate, which no JSON peer can round-trip. */
export function hasLoneSurrogate(text: string): boolean {
  // Nearly all text holds no surrogate at all; the expression answers that natively (at once for a
  // one-byte string, which cannot hold one), where the loop below took 150 ms over 16 MB of arguments.
  if (!SURROGATE.test(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return true;
    }
  }
  return false;
}

/** Finds the first string (key or value) anywhere in a JSON value that holds a lone surrogate; returns its JSON path. */
export function findLoneSurrogate(value: unknown, path = '$'): string | undefined {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findLoneSurrogate(value[i], `${path}[${i}]`);
      if (hit) return hit;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (hasLoneSurrogate(k)) return `${path}.${k}`;
      const hit = findLoneSurrogate(v, `${path}.${k}`);
      if (hit) return hit;
    }
  }
  return undefined;
}
