/**
 * `x-mcp-header` (SEP-2243): a tool parameter its schema marks is mirrored by the client into an
 * `Mcp-Param-{Name}` header, so intermediaries can route on it. Junction reads the body, so it must
 * check every marked parameter: a value in the body needs its header, and the header (Base64 sentinel
 * decoded) must equal it; a null or absent value expects none. Failures are HeaderMismatch (-32020).
 */
import { JunctionError } from '../../contracts/index.js';
import { decodeHeaderValue, type ParamHeaders } from './envelope.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

interface MarkedParameter {
  header: string;
  type: unknown;
  /** The property names from the arguments object down to the parameter. */
  path: readonly string[];
}

/** The marked parameters reachable through `properties` alone (the only place a mark is valid). */
function markedParameters(schema: unknown, path: readonly string[] = [], found: MarkedParameter[] = []): MarkedParameter[] {
  if (!isObject(schema) || !isObject(schema['properties'])) return found;
  for (const [key, property] of Object.entries(schema['properties'])) {
    if (!isObject(property)) continue;
    const header = property['x-mcp-header'];
    if (typeof header === 'string') found.push({ header, type: property['type'], path: [...path, key] });
    else markedParameters(property, [...path, key], found);
  }
  return found;
}

/** Per published schema, walked once: most mark nothing, and then a call checks nothing. */
const marksOf = new WeakMap<object, readonly MarkedParameter[]>();

function marks(inputSchema: unknown): readonly MarkedParameter[] {
  if (!isObject(inputSchema)) return [];
  let found = marksOf.get(inputSchema);
  if (found === undefined) {
    found = markedParameters(inputSchema);
    marksOf.set(inputSchema, found);
  }
  return found;
}

/** The value at `path` in the arguments; undefined where an object on the way is missing. */
function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return value;
}

function matches(type: unknown, header: string, value: unknown): boolean {
  if (type === 'integer' || typeof value === 'number') return header.trim() !== '' && Number(header) === value;
  if (type === 'boolean' || typeof value === 'boolean') return header === String(value);
  return header === value;
}

export function checkParamHeaders(inputSchema: unknown, args: Record<string, unknown>, headers: ParamHeaders): void {
  for (const parameter of marks(inputSchema)) {
    const value = valueAt(args, parameter.path);
    if (value === undefined || value === null) continue;
    const name = `Mcp-Param-${parameter.header}`;
    const raw = headers.get(parameter.header.toLowerCase());
    if (raw === undefined) throw new JunctionError('HeaderMismatch', `Header mismatch: ${name} is required, since the body carries that parameter.`);
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw new JunctionError('HeaderMismatch', `Header mismatch: ${name} holds characters a header may not carry or malformed Base64.`);
    if (!matches(parameter.type, decoded, value)) throw new JunctionError('HeaderMismatch', `Header mismatch: ${name} does not match the body's value.`);
  }
}
