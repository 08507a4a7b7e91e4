/**
 * How every DTO is read: property names matched case-insensitively, as the .NET hub reader does, so
 * the real .NET client's PascalCase (`RequestID`, `Status`, `Value`, `InputSchema`…) and this SDK's
 * camelCase are one shape; a property spelled twice (`Status` and `status`) is refused. Opaque JSON
 * (tool arguments, schemas, structured content) keeps its keys untouched. Enums are read as names in
 * any case or as numbers and come out as numbers; `null` reads as absent.
 */
import { z } from 'zod';

/**
 * An enum given as its number, its name in any case or a numeric string (as .NET's Enum.TryParse reads
 * it), as the number; undefined when it names none of `names`.
 */
export function enumIndex(names: readonly string[], value: number | string): number | undefined {
  const index = typeof value === 'number' || /^\d+$/.test(value) ? Number(value) : names.findIndex((n) => n.toLowerCase() === value.toLowerCase());
  return Number.isInteger(index) && index >= 0 && index < names.length ? index : undefined;
}

/** Builds a schema accepting what `enumIndex` reads, yielding the number. */
export function numericEnum<const Names extends readonly string[]>(names: Names) {
  return z.union([z.number(), z.string()]).transform((value, ctx) => {
    const index = enumIndex(names, value);
    if (index === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected one of ${names.join(', ')} (or 0–${names.length - 1}), got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return index;
  });
}

/**
 * Matches an object's property names case-insensitively against `names` and renames them to those
 * spellings before `schema` reads it. Names outside the list are kept as they are; a property given
 * twice in different cases is an error, because which one the peer meant cannot be known.
 */
function foldKeys<T extends z.ZodType>(names: readonly string[], schema: T) {
  const canonical = new Map(names.map((name) => [name.toLowerCase(), name]));
  const exact = new Set(names);
  // Peers almost always spell every name as listed; then folding would copy the object unchanged.
  const alreadyCanonical = (input: object) => Object.keys(input).every((key) => exact.has(key) || !canonical.has(key.toLowerCase()));
  return z.preprocess((input, ctx) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input) || alreadyCanonical(input)) return input;
    const folded: Record<string, unknown> = {};
    const spelledAs = new Map<string, string>();
    for (const [key, value] of Object.entries(input)) {
      const name = canonical.get(key.toLowerCase()) ?? key;
      const earlier = spelledAs.get(name);
      if (earlier !== undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: `duplicate property: '${earlier}' and '${key}' name the same field '${name}'` });
        continue;
      }
      spelledAs.set(name, key);
      folded[name] = value;
    }
    return folded;
  }, schema);
}

/** A .NET DTO read case-insensitively; unknown properties are dropped. */
export function dto<Shape extends z.ZodRawShape>(shape: Shape) {
  return foldKeys(Object.keys(shape), z.object(shape));
}

/** A .NET DTO read case-insensitively whose unknown properties pass through (content blocks). */
export function looseDto<Shape extends z.ZodRawShape>(shape: Shape) {
  return foldKeys(Object.keys(shape), z.looseObject(shape));
}

export const optionalString = z.string().nullish().transform((v) => v ?? undefined);
export const optionalBoolean = z.boolean().nullish().transform((v) => v ?? undefined);
export const optionalInt = z.number().int().nullish().transform((v) => v ?? undefined);
export const jsonObject = z.record(z.string(), z.unknown());
/** McpPlugin's `Enabled` (default true): a disabled entry is listed by the plugin but never published. */
export const enabledFlag = z.boolean().nullish().transform((v) => v ?? true);
