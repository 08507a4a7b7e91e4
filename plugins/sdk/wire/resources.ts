/** Resources: the catalogue, templates, contents, and how a URI matches a template. */
import { z } from 'zod';
import { responseDataSchema } from './envelope.js';
import { dto, enabledFlag, optionalInt, optionalString } from './reading.js';

export const ResponseListResourceSchema = dto({
  uri: z.string().min(1),
  name: z.string(),
  enabled: enabledFlag,
  mimeType: optionalString,
  description: optionalString,
  size: optionalInt,
});
export type ResponseListResource = z.output<typeof ResponseListResourceSchema>;
export const ResponseListResourcesDataSchema = responseDataSchema(z.array(ResponseListResourceSchema));

export const ResponseResourceTemplateSchema = dto({
  uriTemplate: z.string().min(1),
  name: z.string(),
  enabled: enabledFlag,
  mimeType: optionalString,
  description: optionalString,
});
export type ResponseResourceTemplate = z.output<typeof ResponseResourceTemplateSchema>;
export const ResponseResourceTemplatesDataSchema = responseDataSchema(z.array(ResponseResourceTemplateSchema));

export const RequestResourceContentSchema = dto({ requestId: z.string(), uri: z.string() });
export type RequestResourceContent = z.output<typeof RequestResourceContentSchema>;

export const ResponseResourceContentSchema = dto({
  uri: z.string(),
  mimeType: optionalString,
  text: optionalString,
  blob: optionalString,
});
export type ResponseResourceContent = z.output<typeof ResponseResourceContentSchema>;
export const ResponseResourceContentDataSchema = responseDataSchema(z.array(ResponseResourceContentSchema));

/** RFC 6570 level-1 match of a resource URI against a template: each `{var}` is one or more non-`/` characters. */
export function matchesUriTemplate(uriTemplate: string, uri: string): boolean {
  const pattern = uriTemplate
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') && part.endsWith('}') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`).test(uri);
}
