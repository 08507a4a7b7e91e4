/** fast-check generators for hostile inputs, sampled with a fixed seed so every run sends the same bytes. */
import fc from 'fast-check';

export const FUZZ_SEED = 20_261_202;

export function sample<T>(arbitrary: fc.Arbitrary<T>, numRuns: number, salt = 0): T[] {
  return fc.sample(arbitrary, { seed: FUZZ_SEED + salt, numRuns });
}

export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
/** Strings with lone surrogates spliced in, which JSON.stringify escapes and raw senders do not. */
export const surrogateString = fc.tuple(fc.string(), loneSurrogate, fc.string()).map(([a, s, b]) => `${a}${s}${b}`);

export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  surrogateString,
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e308, -0, '', ' ', '\u0000', '__proto__', 'constructor'),
  fc.string({ minLength: 2000, maxLength: 5000 }),
  fc.array(fc.integer(), { minLength: 500, maxLength: 1000 }),
  fc.constant({ __proto__: { polluted: true } }),
);

export const randomObject = fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'id', 'path', 'limit')), oddValue, { maxKeys: 6 });

/** A body as raw text: not JSON, JSON of any shape, or JSON with raw lone surrogates. */
export const rawBody = fc.oneof(
  fc.string(),
  fc.json(),
  randomObject.map((o) => JSON.stringify(o)),
  surrogateString.map((s) => `{"text":"${s}"}`),
  fc.constantFrom('', '{', '[', 'null', '{"a":1,"a":2}', '\u00ef\u00bb\u00bf{}', '{"__proto__":{"x":1}}', '1e999999', '"'.repeat(100)),
);
