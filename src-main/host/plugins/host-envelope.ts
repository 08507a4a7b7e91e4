/**
 * Request properties the host owns on every plugin tool: which workspace, and which snapshot the caller
 * saw. Plugins cannot declare them; the host strips them before the plugin's own schema binds the rest.
 */
import { z } from 'zod';
import type { JsonSchemaObject } from '../../shared/index.js';
import type { SnapshotIdentity } from '../../../plugins/host-api/index.js';
import { propertiesOf } from './schema-inspection.js';

export const RESERVED_PROPERTIES = ['workspace', 'expectedSnapshot'] as const;

export const snapshotIdentitySchema = z
  .object({
    workspaceId: z.guid(),
    workspaceEpoch: z.number().int().min(0),
    snapshotId: z.guid(),
    transactionRevision: z.number().int().min(0),
  })
  .describe('The complete snapshot object the request was resolved against; echo the published value unchanged.');

/** The host tools' selector convention, so every tool in the catalogue names a workspace the same way. */
export const workspaceSelectorSchema = z.string().min(1).describe('Workspace id, root path or folder name. May be omitted when exactly one workspace is open.');

export type ToolKind = 'query' | 'mutation';

export interface HostEnvelope {
  workspace?: string;
  expectedSnapshot?: SnapshotIdentity;
}

export function envelopeSchema(kind: ToolKind) {
  return z.object({
    workspace: workspaceSelectorSchema.optional(),
    expectedSnapshot: kind === 'mutation' ? snapshotIdentitySchema : snapshotIdentitySchema.optional(),
  });
}

const envelopeJson = {
  query: z.toJSONSchema(envelopeSchema('query'), { io: 'input' }) as Record<string, unknown>,
  mutation: z.toJSONSchema(envelopeSchema('mutation'), { io: 'input' }) as Record<string, unknown>,
};

/** The plugin's request schema with the host's properties merged in, as published in tools/list. */
export function publishedInputSchema(pluginRequest: JsonSchemaObject, kind: ToolKind): JsonSchemaObject {
  const required = Array.isArray(pluginRequest.required) ? [...(pluginRequest.required as string[])] : [];
  if (kind === 'mutation') required.push('expectedSnapshot');
  const out: JsonSchemaObject = {
    ...pluginRequest,
    type: 'object',
    properties: { ...propertiesOf(pluginRequest), ...propertiesOf(envelopeJson[kind]) },
  };
  if (required.length > 0) out.required = required;
  return out;
}
