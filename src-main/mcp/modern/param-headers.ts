/**
 * `x-mcp-header` (SEP-2243): a tool parameter its schema marks is mirrored by the client into an
 * `Mcp-Param-{Name}` header, so intermediaries can route on it. Junction reads the body, so it must
 * check every marked parameter: a value in the body needs its header, and the header (Base64 sentinel
 * decoded) must equal it; a null or absent value expects none. Failures are HeaderMismatch (-32020).
 */
import { JunctionError } from '../../contracts/index.js';
import { decodeHeaderValue } from './envelope.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

interface MarkedParameter {
  header: string;
  type: unknown;
  value: unknown;
}

/** The marked parameters reachable through `properties` alone (the only place a mark is valid), with their values. */
function markedParameters(schema: unknown, args: unknown, found: MarkedParameter[] = []): MarkedParameter[] {
  if (!isObject(schema) || !isObject(schema['properties'])) return found;
  for (const [key, property] of Object.entries(schema['properties'])) {
    if (!isObject(property)) continue;
    const value = isObject(args) ? args[key] : undefined;
    const header = property['x-mcp-header'];
    if (typeof header === 'string') found.push({ header, type: property['type'], value });
    else markedParameters(property, value, found);
  }
  return found;
}

function matches(type: unknown, header: string, value: unknown): boolean {
  if (type === 'integer' || typeof value === 'number') return header.trim() !== '' && Number(header) === value;
  if (type === 'boolean' || typeof value === 'boolean') return header === String(value);
  return header === value;
}

export function checkParamHeaders(inputSchema: unknown, args: Record<string, unknown>, headers: ReadonlyMap<string, string>): void {
  for (const parameter of markedParameters(inputSchema, args)) {
    if (parameter.value === undefined || parameter.value === null) continue;
    const name = `Mcp-Param-${parameter.header}`;
    const raw = headers.get(parameter.header.toLowerCase());
    if (raw === undefined) throw new JunctionError('HeaderMismatch', `Header mismatch: ${name} is required, since the body carries that parameter.`);
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw new JunctionError('HeaderMismatch', `Header mismatch: ${name} holds characters a header may not carry or malformed Base64.`);
    if (!matches(parameter.type, decoded, parameter.value)) throw new JunctionError('HeaderMismatch', `Header mismatch: ${name} does not match the body's value.`);
  }
}
