/**
 * Validates one plugin definition as exported by its module. Every authoring error is accumulated, so an
 * author sees all of them at once; any error disables the whole plugin. Pure: no I/O.
 */
// The functions used, not the package's index, which loads all of semver's ranges and comparators at start.
import valid from 'semver/functions/valid.js';
import type { JsonSchemaObject } from '../../shared/index.js';
import { PLUGIN_API_V1, type MutationHandler, type QueryHandler } from '../../../plugins/host-api/index.js';
import type { PluginDiagnostic, PluginErrorCategory, PluginIssue, PluginWarningCategory } from './diagnostics.js';
import { publishedInputSchema, RESERVED_PROPERTIES, type ToolKind } from './host-envelope.js';
import {
  collectionProperties,
  isObjectContract,
  isZodObject,
  isZodSchema,
  limitProblems,
  minifiedByteLength,
  propertiesOf,
  toJsonSchema,
  zodKind,
  type ZodObjectSchema,
} from './schema-inspection.js';

export const MAX_INPUT_SCHEMA_BYTES = 5000;
const PLUGIN_ID = /^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*$/;
const TOOL_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const MAX_TOOL_NAME = 64;

export interface ValidatedTool {
  pluginId: string;
  kind: ToolKind;
  name: string;
  description: string;
  request: ZodObjectSchema;
  response?: ZodObjectSchema;
  handler: QueryHandler<unknown, unknown> | MutationHandler<unknown>;
  inputSchema: JsonSchemaObject;
  outputSchema?: JsonSchemaObject;
}

export interface ValidatedPlugin {
  id: string;
  version: string;
  source: string;
  tools: ValidatedTool[];
}

export interface ValidationOutcome {
  diagnostic: PluginDiagnostic;
  /** Present exactly when the plugin has no errors. */
  plugin?: ValidatedPlugin;
}

type Record_ = Record<string, unknown>;

class IssueLog {
  readonly errors: PluginIssue<PluginErrorCategory>[] = [];
  readonly warnings: PluginIssue<PluginWarningCategory>[] = [];
  error(category: PluginErrorCategory, message: string, tool?: string): void {
    this.errors.push(tool === undefined ? { category, message } : { category, message, tool });
  }
  warn(category: PluginWarningCategory, message: string, tool?: string): void {
    this.warnings.push(tool === undefined ? { category, message } : { category, message, tool });
  }
}

function isRecord(value: unknown): value is Record_ {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own writable data fields on a handler: state shared by every concurrent invocation. */
function mutableFields(handler: object): string[] {
  if (Object.isFrozen(handler)) return [];
  return Object.getOwnPropertyNames(handler).filter((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(handler, key);
    if (!descriptor) return false;
    if (descriptor.set) return true;
    return descriptor.writable === true && typeof descriptor.value !== 'function';
  });
}

function checkHandler(log: IssueLog, name: string, handler: unknown): handler is QueryHandler<unknown, unknown> {
  if (!isRecord(handler) || typeof handler.handle !== 'function') {
    log.error('handler', "the handler must be an object with a 'handle(request, context)' method", name);
    return false;
  }
  const fields = mutableFields(handler);
  if (fields.length > 0) {
    log.warn('handlerState', `the handler owns mutable state (${fields.join(', ')}) shared by concurrent invocations; keep handlers stateless or make the state safe`, name);
  }
  return true;
}

function checkRequest(log: IssueLog, name: string, request: unknown): { zod: ZodObjectSchema; json: JsonSchemaObject } | undefined {
  if (!isZodObject(request)) {
    log.error('schema', `the request schema must be a zod object schema, got ${isZodSchema(request) ? `a zod '${zodKind(request)}'` : typeof request}`, name);
    return undefined;
  }
  const json = toJsonSchema(request, 'input');
  if ('error' in json) {
    log.error('schema', `the request schema cannot be published as JSON Schema: ${json.error}`, name);
    return undefined;
  }
  const props = propertiesOf(json.schema);
  for (const reserved of RESERVED_PROPERTIES) {
    if (props[reserved]) log.error('reservedProperty', `'${reserved}' is supplied by the host and must not be declared by the request`, name);
  }
  return { zod: request, json: json.schema };
}

function checkResponse(log: IssueLog, name: string, response: unknown): { zod: ZodObjectSchema; json: JsonSchemaObject } | undefined {
  if (!isZodSchema(response)) {
    log.error('responseSchema', `a query tool needs a zod response schema, got ${typeof response}`, name);
    return undefined;
  }
  const json = toJsonSchema(response, 'output');
  if (!isZodObject(response) || ('schema' in json && !isObjectContract(json.schema))) {
    log.error('responseSchema', `the response must be an object schema with declared properties; '${zodKind(response)}' responses are rejected`, name);
    return undefined;
  }
  if ('error' in json) {
    log.error('schema', `the response schema cannot be published as JSON Schema: ${json.error}`, name);
    return undefined;
  }
  return { zod: response, json: json.schema };
}

function checkTool(log: IssueLog, pluginId: string, kind: ToolKind, raw: unknown, index: number): ValidatedTool | undefined {
  if (!isRecord(raw)) {
    log.error('definition', `${kind} tool #${index} is not an object`);
    return undefined;
  }
  const name = typeof raw.name === 'string' ? raw.name : `#${index}`;
  if (typeof raw.name !== 'string' || !TOOL_NAME.test(raw.name) || raw.name.length > MAX_TOOL_NAME) {
    log.error('toolName', `tool name ${JSON.stringify(raw.name)} must be kebab-case (lower-case words joined by '-'), at most ${MAX_TOOL_NAME} characters`, name);
  }
  if (typeof raw.description !== 'string' || raw.description.trim() === '') log.error('description', 'the tool needs a non-empty description', name);
  const handlerOk = checkHandler(log, name, raw.handler);
  const request = checkRequest(log, name, raw.request);
  const response = kind === 'query' ? checkResponse(log, name, raw.response) : undefined;
  if (kind === 'mutation' && raw.response !== undefined) log.error('responseSchema', 'mutation tools return a candidate and summary; they must not declare a response schema', name);

  if (request && response) {
    const collections = collectionProperties(response.json);
    const problems = collections.length > 0 ? limitProblems(request.json) : [];
    if (problems.length > 0) {
      log.error('unboundedCollection', `the response returns a collection (${collections.join(', ')}) but ${problems.join('; ')}`, name);
    }
  }
  if (!request || !handlerOk || (kind === 'query' && !response)) return undefined;

  const inputSchema = publishedInputSchema(request.json, kind);
  const bytes = minifiedByteLength(inputSchema);
  if (bytes > MAX_INPUT_SCHEMA_BYTES) log.warn('schemaSize', `the minified input schema is ${bytes} bytes, above the ${MAX_INPUT_SCHEMA_BYTES}-byte budget`, name);

  const tool: ValidatedTool = {
    pluginId,
    kind,
    name,
    description: raw.description as string,
    request: request.zod,
    handler: raw.handler as ValidatedTool['handler'],
    inputSchema,
  };
  if (response) {
    tool.response = response.zod;
    tool.outputSchema = response.json;
  }
  return tool;
}

function toolList(log: IssueLog, raw: Record_, key: 'queries' | 'mutations'): unknown[] {
  const value = raw[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    log.error('definition', `'${key}' must be an array of tool definitions`);
    return [];
  }
  return value;
}

/** Validates a module's default export. `source` names the module in diagnostics. */
export function validatePluginDefinition(value: unknown, source: string): ValidationOutcome {
  const log = new IssueLog();
  const fallbackId = `<${source}>`;
  if (!isRecord(value)) {
    log.error('definition', 'the module must export a plugin definition object as its default export');
    return { diagnostic: { pluginId: fallbackId, source, enabled: false, errors: log.errors, warnings: log.warnings, tools: [] } };
  }
  const id = typeof value.id === 'string' && PLUGIN_ID.test(value.id) ? value.id : undefined;
  if (!id) log.error('id', `plugin id ${JSON.stringify(value.id)} must be lower-case words joined by '.' or '-'`);
  if (value.apiVersion !== PLUGIN_API_V1) log.error('apiVersion', `apiVersion ${JSON.stringify(value.apiVersion)} does not equal the host's ${PLUGIN_API_V1}`);
  const version = typeof value.version === 'string' && valid(value.version) === value.version ? value.version : undefined;
  if (!version) log.error('version', `version ${JSON.stringify(value.version)} is not a valid semantic version`);

  const pluginId = id ?? fallbackId;
  const tools: ValidatedTool[] = [];
  const seen = new Set<string>();
  for (const kind of ['query', 'mutation'] as const) {
    toolList(log, value, kind === 'query' ? 'queries' : 'mutations').forEach((raw, index) => {
      const tool = checkTool(log, pluginId, kind, raw, index);
      const name = isRecord(raw) && typeof raw.name === 'string' ? raw.name : undefined;
      if (name !== undefined) {
        if (seen.has(name)) log.error('duplicateTool', `the plugin declares '${name}' more than once`, name);
        seen.add(name);
      }
      if (tool) tools.push(tool);
    });
  }
  if (seen.size === 0 && log.errors.length === 0) log.error('definition', 'the plugin declares no query or mutation tools');

  const diagnostic: PluginDiagnostic = { pluginId, source, enabled: false, errors: log.errors, warnings: log.warnings, tools: [] };
  if (version) diagnostic.version = version;
  if (log.errors.length > 0 || !id || !version) return { diagnostic };
  diagnostic.enabled = true;
  diagnostic.tools = tools.map((t) => t.name);
  return { diagnostic, plugin: { id, version, source, tools } };
}
