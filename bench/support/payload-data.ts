/**
 * The large-payload part's bytes: base64 of pseudo-random bytes, the same for a size in every process
 * (the plugin, the floor's far end, the load generator), built once per size. Random rather than one
 * repeated letter, as a screenshot's base64 is: a run of `A`s holds none of the words a secret's key
 * is spelled with, where real base64 of a megabyte holds several ("auth", "pwd", "token" in any case),
 * so only random data takes the paths a real capture takes.
 */
const cache = new Map<number, string>();

/** `chars` characters of base64 (a multiple of 4), deterministic per size. */
export function base64Payload(chars: number): string {
  let text = cache.get(chars);
  if (text === undefined) {
    const bytes = Buffer.allocUnsafe((chars / 4) * 3);
    // xorshift32: fast, seeded, and without a pattern any scanner could shortcut.
    let state = 0x9e3779b9;
    for (let i = 0; i < bytes.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      bytes[i] = state & 0xff;
    }
    text = bytes.toString('base64');
    cache.set(chars, text);
  }
  return text;
}
