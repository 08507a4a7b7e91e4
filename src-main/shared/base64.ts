/**
 * Base64 checked once per payload. Image and audio blocks carry base64 `data`, and a screenshot is
 * megabytes of it: the bridge checks a plugin's blocks when the reply arrives, and converting them to
 * MCP blocks and the MCP room's result check would check them again (MCP's schema by decoding the
 * whole string with `atob`). A block whose data passed is frozen, so its data cannot change any more,
 * and remembered: later checks of that object read the mark instead of the megabytes.
 */

/** A character outside the base64 alphabet and its padding. */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/**
 * Strict base64 (`^[A-Za-z0-9+/]*={0,2}$` in whole quads): the standard alphabet, `=` only as the last
 * one or two characters, no white space. Everything it passes, `atob` (and so MCP's schema) accepts;
 * it reads the text once and copies nothing. Asked as a search for a character outside the alphabet
 * and the place of the first `=`, because the anchored pattern itself took 170 to 250 ms over 16 MB of
 * random base64 where the search takes 15 (measured on Node 20).
 */
export function isBase64(text: string): boolean {
  if (text.length % 4 !== 0 || NOT_BASE64.test(text)) return false;
  const padding = text.indexOf('=');
  return padding === -1 || padding === text.length - 1 || (padding === text.length - 2 && text.endsWith('='));
}

const checked = new WeakSet<object>();

/** Freezes `block`, whose `data` the caller found to be base64 (`isBase64`), and remembers that it was. */
export function markBase64Checked<T extends object>(block: T): T {
  checked.add(Object.freeze(block));
  return block;
}

/** Whether `block` was marked by `markBase64Checked` (its data is base64 and can no longer change). */
export function isBase64Checked(block: object): boolean {
  return checked.has(block);
}
