/**
 * Form fields from a tool's JSON Schema and arguments from the form, for the console's tool runner.
 * Each field follows its schema type: text, numbers (with their bounds), booleans, enums, and nested
 * objects as groups of their own fields; only what has no form (arrays, unions, free objects) is edited
 * as JSON text. Values are keyed by path (`position/x`). Pure.
 */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'object' | 'json';

export interface FormField {
  name: string;
  /** The value's key in the form: the names from the root, joined by `/`. */
  path: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  options?: string[];
  /** The schema's default, shown as a placeholder; an empty field leaves the argument out. */
  placeholder?: string;
  /** The schema allows null (an explicit "null" choice). */
  nullable?: boolean;
  min?: number;
  max?: number;
  /** Kind `object`: its properties. */
  fields?: FormField[];
}

/** Nesting shown as groups; deeper objects are edited as JSON. */
const MAX_DEPTH = 3;

const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(schema: Record<string, unknown>, depth: number): FieldKind {
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) return 'enum';
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return type;
  if (type === 'object' && obj(schema.properties) && Object.keys(schema.properties).length > 0 && depth < MAX_DEPTH) return 'object';
  return 'json';
}

function fieldsAt(schema: Record<string, unknown>, prefix: string, depth: number): FormField[] {
  if (!obj(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(schema.properties).map(([name, raw]) => {
    const property = obj(raw) ? raw : {};
    const kind = kindOf(property, depth);
    const path = prefix ? `${prefix}/${name}` : name;
    const field: FormField = { name, path, kind, required: required.has(name) };
    if (typeof property.description === 'string') field.description = property.description;
    if (kind === 'enum') field.options = (property.enum as string[]).slice();
    if (Array.isArray(property.type) && property.type.includes('null')) field.nullable = true;
    if (typeof property.minimum === 'number') field.min = property.minimum;
    if (typeof property.maximum === 'number') field.max = property.maximum;
    if (property.default !== undefined && property.default !== null) field.placeholder = typeof property.default === 'string' ? property.default : JSON.stringify(property.default);
    if (kind === 'object') field.fields = fieldsAt(property, path, depth + 1);
    return field;
  });
}

export function formFields(inputSchema: unknown): FormField[] {
  return obj(inputSchema) ? fieldsAt(inputSchema, '', 0) : [];
}

export type FormValues = Record<string, string>;

/** Text for each field from an arguments object (strings as they are, everything else as JSON). */
export function valuesFromArgs(fields: readonly FormField[], args: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = args[f.name];
    if (v === undefined) continue;
    if (f.kind === 'object' && obj(v)) Object.assign(values, valuesFromArgs(f.fields ?? [], v));
    else values[f.path] = typeof v === 'string' && (f.kind === 'string' || f.kind === 'enum') ? v : JSON.stringify(v, null, f.kind === 'json' ? 2 : undefined);
  }
  return values;
}

export type ArgsResult = { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] };

function hasAny(fields: readonly FormField[], values: FormValues): boolean {
  return fields.some((f) => (f.kind === 'object' ? hasAny(f.fields ?? [], values) : (values[f.path] ?? '').trim() !== ''));
}

function collect(fields: readonly FormField[], values: FormValues, problems: string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.kind === 'object') {
      const inner = f.fields ?? [];
      // An optional object left blank is left out; once any of its fields is filled, its own required ones count.
      if (!f.required && !hasAny(inner, values)) continue;
      args[f.name] = collect(inner, values, problems);
      continue;
    }
    const text = values[f.path] ?? '';
    if (text.trim() === '') {
      if (f.required) problems.push(`${f.path} is required`);
      continue;
    }
    if (f.nullable && text === 'null') {
      args[f.name] = null;
      continue;
    }
    switch (f.kind) {
      case 'string':
      case 'enum':
        args[f.name] = text;
        break;
      case 'boolean':
        args[f.name] = text === 'true';
        break;
      case 'number':
      case 'integer': {
        const n = Number(text);
        if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n))) problems.push(`${f.path} must be ${f.kind === 'integer' ? 'an integer' : 'a number'}`);
        else if (f.min !== undefined && n < f.min) problems.push(`${f.path} must be at least ${f.min}`);
        else if (f.max !== undefined && n > f.max) problems.push(`${f.path} must be at most ${f.max}`);
        else args[f.name] = n;
        break;
      }
      case 'json':
        try {
          args[f.name] = JSON.parse(text);
        } catch {
          problems.push(`${f.path} is not valid JSON`);
        }
        break;
    }
  }
  return args;
}

/** Builds the arguments object; empty optional fields are left out, bad numbers and JSON are reported by field. */
export function argsFromValues(fields: readonly FormField[], values: FormValues): ArgsResult {
  const problems: string[] = [];
  const args = collect(fields, values, problems);
  return problems.length ? { ok: false, problems } : { ok: true, args };
}
