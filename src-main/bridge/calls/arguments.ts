/**
 * Server-side argument validation against a tool's published input schema (8.14+ plugins only).
 * Validators are compiled once per schema text; a schema ajv cannot compile is not enforced,
 * because refusing every call over a plugin's schema bug would be worse than forwarding it.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { ResponseListTool } from '../../../plugins/sdk/wire/index.js';
import { onFirstNeed, SchemaTextCache } from '../../shared/index.js';

export interface ArgumentProblem {
  path: string;
  message: string;
}

/** ajv is loaded with the first schema to compile: only calls to 8.14+ plugins need it. */
const loadValidators = onFirstNeed("ajv, which checks arguments against a tool's input schema,", async () => {
  const { Ajv } = await import('ajv');
  /** A plugin that reconnects publishes equal schemas as new objects; compiled per object, each reconnect leaked its validators (about 7 KB a tool). */
  return new SchemaTextCache(
    () => new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false }),
    (ajv: Ajv, schema): ValidateFunction | null => {
      try {
        return ajv.compile(schema);
      } catch {
        return null;
      }
    },
  );
});
const compiled = new WeakMap<ResponseListTool, ValidateFunction | null>();

async function compile(tool: ResponseListTool): Promise<ValidateFunction | null> {
  const validators = await loadValidators();
  // The dialect marker would make ajv look up a meta-schema it may not bundle; the keywords are what matter.
  const { $schema: _dialect, ...schema } = tool.inputSchema;
  const validator = validators.get(schema);
  compiled.set(tool, validator);
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

/**
 * Starts loading ajv, for a plugin whose calls will be validated (an 8.14+ one, once its handshake is
 * accepted): its first call would otherwise wait for the load, which on a busy machine takes a good part
 * of a short call deadline. A failed load is left for that call to meet and report.
 */
export function prepareArgumentValidation(): void {
  loadValidators().catch(() => undefined);
}

/**
 * Problems with `args` for `tool`, empty when they satisfy its input schema. Answered at once when the
 * tool's validator is compiled; its first call waits for the compile (and ajv's load), and rejects
 * with InternalError when ajv does not load.
 */
export function validateArguments(tool: ResponseListTool, args: Record<string, unknown>): ArgumentProblem[] | Promise<ArgumentProblem[]> {
  const validator = compiled.get(tool);
  return validator === undefined ? compile(tool).then((v) => problemsOf(v, args)) : problemsOf(validator, args);
}

function problemsOf(validator: ValidateFunction | null, args: Record<string, unknown>): ArgumentProblem[] {
  if (!validator || validator(args)) return [];
  return (validator.errors ?? []).map(describe);
}
