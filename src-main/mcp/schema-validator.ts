/**
 * The SDK's JSON Schema validator (its ajv settings and formats) behind a schema-text cache, for the
 * schemas agents and the console send: an elicitation's requested schema is a new object on every
 * request. One instance serves every MCP session: the SDK's default gives each Server an ajv of its own
 * (about 13 KB per session, used only to check elicitation answers).
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { SchemaTextCache } from '../shared/index.js';

export function createSchemaValidator(): jsonSchemaValidator {
  const cache = new SchemaTextCache(
    () => new AjvJsonSchemaValidator(),
    (validator, schema) => validator.getValidator<unknown>(schema as JsonSchemaType),
  );
  return { getValidator: <T>(schema: JsonSchemaType) => cache.get(schema) as JsonSchemaValidator<T> };
}
