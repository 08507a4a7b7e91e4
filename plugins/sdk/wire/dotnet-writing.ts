/**
 * Writing as McpPlugin.Server writes: PascalCase, enum names, nulls omitted. Only the four DTOs with
 * explicit names (the handshake pair, McpClientData, McpServerData) stay camelCase. The SDK itself
 * still writes camelCase with numeric enums, which every reader of the contract accepts.
 */
import { ERROR_KIND_NAMES, ROLE_NAMES, STATUS_NAMES } from './enums.js';

/** Spellings that are not the camelCase name with its first letter raised (`Consts`-era DTOs spell `RequestID`). */
const PASCAL_NAMES: Readonly<Record<string, string>> = { requestId: 'RequestID' };
/** Properties whose values are opaque JSON: their keys belong to the tool or schema author, not to the DTO. */
const OPAQUE_PROPERTIES = new Set(['arguments', 'inputSchema', 'outputSchema', 'structuredContent', '_meta']);
/** Enum-typed properties, written by name as ReflectorNet's EnumJsonConverter writes them. */
const ENUM_NAMES: Readonly<Record<string, readonly string[]>> = { status: STATUS_NAMES, errorKind: ERROR_KIND_NAMES, role: ROLE_NAMES };

/**
 * Wire names made so far: the same few DTO keys on every message. A name built anew per key cost four
 * strings and a fresh property key to look up; a known one is the same string each time. Bounded,
 * since a non-opaque value may carry keys its author chose.
 */
const wireNames = new Map<string, string>();
const MAX_WIRE_NAMES = 512;

function wireName(key: string): string {
  let name = wireNames.get(key);
  if (name === undefined) {
    name = PASCAL_NAMES[key] ?? (key.startsWith('_') ? key : key.charAt(0).toUpperCase() + key.slice(1));
    if (wireNames.size < MAX_WIRE_NAMES) wireNames.set(key, name);
  }
  return name;
}

/**
 * A payload in McpPlugin.Server's own writing (PascalCase property names, enum names, nulls and
 * undefined omitted), which the .NET client and this SDK both read. Do not pass the explicitly named
 * DTOs (handshake, McpClientData, McpServerData): they are camelCase on every side.
 */
export function toDotNetWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDotNetWire);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field: unknown = (value as Record<string, unknown>)[key];
    if (field === undefined || field === null) continue;
    const name = wireName(key);
    const enumNames = ENUM_NAMES[key];
    if (OPAQUE_PROPERTIES.has(key)) out[name] = field;
    else if (enumNames && typeof field === 'number') out[name] = enumNames[field] ?? field;
    else out[name] = toDotNetWire(field);
  }
  return out;
}
