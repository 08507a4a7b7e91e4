/**
 * Server-side argument validation against a tool's published input schema (8.14+ plugins only).
 * Validators are compiled once per schema text; a schema ajv cannot compile is not enforced,
 * because refusing every call over a plugin's schema bug would be worse than forwarding it.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ResponseListTool } from '../../../plugins/sdk/wire/index.js';
import { SchemaTextCache } from '../../shared/index.js';

export interface ArgumentProblem {
  path: string;
  message: string;
}

const newAjv = () => new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
/** A plugin that reconnects publishes equal schemas as new objects; compiled per object, each reconnect leaked its validators (about 7 KB a tool). */
const validators = new SchemaTextCache(newAjv, (ajv, schema): ValidateFunction | null => {
  try {
    return ajv.compile(schema);
  } catch {
    return null;
  }
});
const compiled = new WeakMap<ResponseListTool, ValidateFunction | null>();

function validatorFor(tool: ResponseListTool): ValidateFunction | null {
  let validator = compiled.get(tool);
  if (validator === undefined) {
    // The dialect marker would make ajv look up a meta-schema it may not bundle; the keywords are what matter.
    const { $schema: _dialect, ...schema } = tool.inputSchema;
    validator = validators.get(schema);
    compiled.set(tool, validator);
  }
  return validator;
}

function describe(error: ErrorObject): ArgumentProblem {
  const missing = error.keyword === 'required' ? `/${String(error.params['missingProperty'])}` : '';
  const path = `${error.instancePath}${missing}` || '/';
  return { path, message: `${error.message ?? error.keyword}${allowedValues(error)}` };
}

/** ajv says only "must be equal to one of the allowed values"; an agent needs to see them to fix its call. */
function allowedValues(error: ErrorObject): string {
  if (error.keyword === 'enum') return `: ${(error.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') return ` ${JSON.stringify(error.params['allowedValue'])}`;
  return '';
}

/** Problems with `args` for `tool`, empty when they satisfy its input schema. */
export function validateArguments(tool: ResponseListTool, args: Record<string, unknown>): ArgumentProblem[] {
  const validator = validatorFor(tool);
  if (!validator || validator(args)) return [];
  return (validator.errors ?? []).map(describe);
}
