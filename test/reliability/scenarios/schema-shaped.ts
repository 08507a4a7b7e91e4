/**
 * Arguments shaped like a tool's published JSON input schema, with mutations: any leaf may become an
 * odd value, required keys may go missing, and unknown keys may appear. Good for reaching the code
 * behind validation, not just the validator.
 */
import fc from 'fast-check';
import { oddValue } from './fuzz-inputs.js';

type Schema = Record<string, unknown>;

function leaf(schema: Schema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('src/index.ts', 'README.md', '00000000-0000-4000-8000-000000000000'));
    case 'integer':
      return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constant(null));
    case 'number':
      return fc.double({ noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(shaped((schema.items as Schema | undefined) ?? {}), { maxLength: 3 });
    default:
      return fc.jsonValue();
  }
}

function shaped(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const properties = schema.properties as Record<string, Schema> | undefined;
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants && variants.length > 0 && depth < 4) return fc.oneof(...variants.map((v) => shaped(v, depth + 1)));
  const valid = properties && depth < 4 ? objectOf(properties, depth) : leaf(schema);
  return fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: oddValue, weight: 1 });
}

function objectOf(properties: Record<string, Schema>, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(properties).map(([key, schema]) => fc.option(shaped(schema, depth + 1).map((value) => [key, value] as const), { freq: 4, nil: undefined }));
  return fc.tuple(fc.tuple(...entries), fc.option(fc.tuple(fc.string({ maxLength: 8 }), oddValue), { nil: undefined })).map(([present, extra]) => {
    const value: Record<string, unknown> = {};
    for (const entry of present) if (entry) value[entry[0]] = entry[1];
    if (extra) value[extra[0]] = extra[1];
    return value;
  });
}

/** Schema-shaped arguments for `inputSchema`, top-level always an object as MCP requires. */
export function argumentsFor(inputSchema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = (inputSchema.properties as Record<string, Schema> | undefined) ?? {};
  return objectOf(properties, 0);
}
