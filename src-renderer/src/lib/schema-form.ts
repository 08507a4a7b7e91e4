/**
 * Form fields from a tool's JSON Schema and arguments from the form, for the console's tool runner.
 * Scalars and enums get their own inputs; anything nested is edited as JSON text. Pure.
 */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  options?: string[];
  /** The schema's default, shown as a placeholder; an empty field leaves the argument out. */
  placeholder?: string;
}

const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(schema: Record<string, unknown>): FieldKind {
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) return 'enum';
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return type;
  return 'json';
}

export function formFields(inputSchema: unknown): FormField[] {
  if (!obj(inputSchema) || !obj(inputSchema.properties)) return [];
  const required = new Set(Array.isArray(inputSchema.required) ? inputSchema.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(inputSchema.properties).map(([name, raw]) => {
    const schema = obj(raw) ? raw : {};
    const kind = kindOf(schema);
    const field: FormField = { name, kind, required: required.has(name) };
    if (typeof schema.description === 'string') field.description = schema.description;
    if (kind === 'enum') field.options = (schema.enum as string[]).slice();
    if (schema.default !== undefined) field.placeholder = typeof schema.default === 'string' ? schema.default : JSON.stringify(schema.default);
    return field;
  });
}

export type FormValues = Record<string, string>;

/** Text for each field from an arguments object (strings as they are, everything else as JSON). */
export function valuesFromArgs(fields: readonly FormField[], args: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = args[f.name];
    if (v === undefined) continue;
    values[f.name] = typeof v === 'string' && (f.kind === 'string' || f.kind === 'enum') ? v : JSON.stringify(v, null, f.kind === 'json' ? 2 : undefined);
  }
  return values;
}

export type ArgsResult = { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] };

/** Builds the arguments object; empty optional fields are left out, bad numbers and JSON are reported by field. */
export function argsFromValues(fields: readonly FormField[], values: FormValues): ArgsResult {
  const args: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const f of fields) {
    const text = values[f.name] ?? '';
    if (text.trim() === '') {
      if (f.required) problems.push(`${f.name} is required`);
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
        if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n))) problems.push(`${f.name} must be ${f.kind === 'integer' ? 'an integer' : 'a number'}`);
        else args[f.name] = n;
        break;
      }
      case 'json':
        try {
          args[f.name] = JSON.parse(text);
        } catch {
          problems.push(`${f.name} is not valid JSON`);
        }
        break;
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, args };
}
