/**
 * The form an MCP elicitation asks for (a flat object of primitive properties: text with an optional
 * format, numbers with bounds, booleans, single and multiple choices), as fields, starting values and the
 * problems an answer has before it is sent. The server validates again; this only spares a round trip. Pure.
 */
export type AnswerValue = string | number | boolean | string[];

export interface ElicitationField {
  name: string;
  label: string;
  description?: string;
  kind: 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  required: boolean;
  options?: Array<{ value: string; title: string }>;
  format?: string;
  min?: number;
  max?: number;
  default?: AnswerValue;
}

const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function choices(schema: Record<string, unknown>): Array<{ value: string; title: string }> | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.filter((v): v is string => typeof v === 'string').map((value, i) => ({ value, title: typeof names[i] === 'string' ? names[i] : value }));
  }
  const list = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (!list) return undefined;
  return list.filter(obj).filter((o) => typeof o.const === 'string').map((o) => ({ value: o.const as string, title: typeof o.title === 'string' ? o.title : (o.const as string) }));
}

export function elicitationFields(requestedSchema: Record<string, unknown>): ElicitationField[] {
  const properties = obj(requestedSchema.properties) ? requestedSchema.properties : {};
  const required = new Set(Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(properties).map(([name, raw]) => {
    const schema = obj(raw) ? raw : {};
    const field: ElicitationField = { name, label: typeof schema.title === 'string' ? schema.title : name, kind: 'text', required: required.has(name) };
    if (typeof schema.description === 'string') field.description = schema.description;
    const items = obj(schema.items) ? schema.items : undefined;
    const single = choices(schema);
    const multiple = schema.type === 'array' && items ? choices(items) : undefined;
    if (multiple) {
      field.kind = 'choices';
      field.options = multiple;
    } else if (single) {
      field.kind = 'choice';
      field.options = single;
    } else if (schema.type === 'boolean' || schema.type === 'number' || schema.type === 'integer') field.kind = schema.type;
    if (typeof schema.format === 'string') field.format = schema.format;
    const min = num(schema.minimum) ?? num(schema.minLength) ?? num(schema.minItems);
    const max = num(schema.maximum) ?? num(schema.maxLength) ?? num(schema.maxItems);
    if (min !== undefined) field.min = min;
    if (max !== undefined) field.max = max;
    const d = schema.default;
    if (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' || (Array.isArray(d) && d.every((v) => typeof v === 'string'))) field.default = d;
    return field;
  });
}

export function initialAnswer(fields: readonly ElicitationField[]): Record<string, AnswerValue> {
  const values: Record<string, AnswerValue> = {};
  for (const f of fields) if (f.default !== undefined) values[f.name] = f.default;
  return values;
}

/** What is wrong with an answer, field by field (empty: it may be sent). */
export function answerProblems(fields: readonly ElicitationField[], values: Record<string, AnswerValue>): string[] {
  const problems: string[] = [];
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined || (Array.isArray(v) && v.length === 0 && f.required)) {
      if (f.required) problems.push(`${f.label} is required`);
      continue;
    }
    if ((f.kind === 'number' || f.kind === 'integer') && typeof v === 'number') {
      if (f.kind === 'integer' && !Number.isInteger(v)) problems.push(`${f.label} must be a whole number`);
      if (f.min !== undefined && v < f.min) problems.push(`${f.label} must be at least ${f.min}`);
      if (f.max !== undefined && v > f.max) problems.push(`${f.label} must be at most ${f.max}`);
    } else if (f.kind === 'text' && typeof v === 'string') {
      if (f.min !== undefined && v.length < f.min) problems.push(`${f.label} needs at least ${f.min} characters`);
      if (f.max !== undefined && v.length > f.max) problems.push(`${f.label} takes at most ${f.max} characters`);
    }
  }
  return problems;
}
