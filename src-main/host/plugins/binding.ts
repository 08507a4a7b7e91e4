/**
 * Binds raw tool arguments: the host's envelope and the plugin's request are validated together and every
 * issue is reported at once, before any execution context is acquired.
 */
import type { z } from 'zod';
import { JunctionError, next } from '../../contracts/index.js';
import { envelopeSchema, RESERVED_PROPERTIES, type HostEnvelope } from './host-envelope.js';
import type { ValidatedTool } from './validate-definition.js';

export interface BoundArguments {
  envelope: HostEnvelope;
  request: unknown;
}

export interface BindingIssue {
  path: string;
  message: string;
}

function issuesOf(error: z.ZodError): BindingIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '$', message: issue.message }));
}

export function bindArguments(tool: ValidatedTool, args: Record<string, unknown>): BoundArguments {
  const envelopePart: Record<string, unknown> = {};
  const requestPart: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if ((RESERVED_PROPERTIES as readonly string[]).includes(key)) envelopePart[key] = value;
    else requestPart[key] = value;
  }
  const envelope = envelopeSchema(tool.kind).safeParse(envelopePart);
  const request = tool.request.safeParse(requestPart);
  const issues = [...(envelope.success ? [] : issuesOf(envelope.error)), ...(request.success ? [] : issuesOf(request.error))];
  if (!envelope.success || !request.success) {
    throw new JunctionError('InvalidArguments', `Arguments for '${tool.name}' are invalid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, {
      next: next('fixArguments', tool.name),
      details: { issues },
    });
  }
  return { envelope: envelope.data as HostEnvelope, request: request.data };
}
