/**
 * Structural checks over plugin schemas, done on their JSON Schema projection so the rules match exactly
 * what agents will see. Pure: no I/O.
 */
import { z } from 'zod';
import type { JsonSchemaObject } from '../../shared/index.js';
import { errorMessage } from '../../shared/index.js';

export type ZodObjectSchema = z.ZodObject;

type JsonSchemaNode = Record<string, unknown>;

export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

export function zodKind(schema: z.ZodType): string {
  return schema._zod.def.type;
}

export function isZodObject(value: unknown): value is ZodObjectSchema {
  return isZodSchema(value) && zodKind(value) === 'object';
}

/** The published JSON Schema of a zod schema, or the reason it cannot be represented. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): { schema: JsonSchemaObject } | { error: string } {
  try {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'throw' }) as JsonSchemaNode;
    if (rest.type !== 'object') return { error: `the root is '${String(rest.type ?? 'untyped')}', not an object schema` };
    return { schema: rest as JsonSchemaObject };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

function node(value: unknown): JsonSchemaNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchemaNode) : undefined;
}

export function propertiesOf(schema: JsonSchemaNode): Record<string, JsonSchemaNode> {
  const props = node(schema.properties) ?? {};
  const out: Record<string, JsonSchemaNode> = {};
  for (const [key, value] of Object.entries(props)) {
    const n = node(value);
    if (n) out[key] = n;
  }
  return out;
}

function requiredOf(schema: JsonSchemaNode): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
}

function typesOf(n: JsonSchemaNode): string[] {
  if (typeof n.type === 'string') return [n.type];
  if (Array.isArray(n.type)) return n.type.filter((t): t is string => typeof t === 'string');
  return [];
}

/** The alternatives of a property: its anyOf branches, or itself. */
function branchesOf(n: JsonSchemaNode): JsonSchemaNode[] {
  const anyOf = Array.isArray(n.anyOf) ? n.anyOf.map(node).filter((b): b is JsonSchemaNode => b !== undefined) : [];
  return anyOf.length > 0 ? anyOf : [n];
}

/** A response is a dictionary, not an object contract, when it has no declared properties. */
export function isObjectContract(schema: JsonSchemaNode): boolean {
  return node(schema.properties) !== undefined && schema.additionalProperties !== true && node(schema.additionalProperties) === undefined;
}

function isBoundedCollectionShape(n: JsonSchemaNode): boolean {
  const props = propertiesOf(n);
  return props.items !== undefined && typesOf(props.items).includes('array') && props.hasMore !== undefined;
}

/** Top-level response properties that hold a collection (an array or a bounded collection). */
export function collectionProperties(response: JsonSchemaNode): string[] {
  return Object.entries(propertiesOf(response))
    .filter(([, n]) => branchesOf(n).some((b) => typesOf(b).includes('array') || isBoundedCollectionShape(b)))
    .map(([key]) => key);
}

/** Why a request's `limit` does not meet the bounded-results contract; empty when it does. */
export function limitProblems(request: JsonSchemaNode): string[] {
  const limit = propertiesOf(request).limit;
  if (!limit) return ["the request has no 'limit' property"];
  const problems: string[] = [];
  if (requiredOf(request).includes('limit')) problems.push("'limit' must be optional");
  const branches = branchesOf(limit);
  const nullable = branches.some((b) => typesOf(b).includes('null'));
  const integer = branches.find((b) => typesOf(b).includes('integer'));
  if (!nullable) problems.push("'limit' must be nullable");
  if (!integer) problems.push("'limit' must be an integer");
  else if (integer.minimum !== 0) problems.push("'limit' must have minimum 0");
  const def = limit.default;
  if (typeof def !== 'number' || !Number.isInteger(def) || def <= 0) problems.push("'limit' must publish a positive integer default");
  return problems;
}

export function minifiedByteLength(schema: unknown): number {
  return Buffer.byteLength(JSON.stringify(schema), 'utf8');
}
