/**
 * MCP clients (the SDK's included) validate `structuredContent` against a tool's output schema even on
 * `isError` results, and Junction's failures carry `structuredContent: { error }`. A published output
 * schema must therefore admit the error envelope as an alternative, or every structured failure of a
 * tool with an output schema is rejected by the client.
 */
import type { JsonSchemaObject } from '../../shared/json.js';

const ERROR_ENVELOPE = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' }, next: { type: 'object' }, details: { type: 'object' } },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
} as const;

export function admittingErrorEnvelope(output: JsonSchemaObject): JsonSchemaObject {
  return { type: 'object', anyOf: [output, ERROR_ENVELOPE] };
}
