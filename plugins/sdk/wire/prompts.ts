/** Prompts: the catalogue and a rendered prompt. */
import { z } from 'zod';
import { ContentBlockSchema, responseDataSchema } from './envelope.js';
import { ResponseStatus, responseStatusSchema, roleSchema } from './enums.js';
import { dto, enabledFlag, jsonObject, optionalBoolean, optionalString } from './reading.js';

export const ResponsePromptArgumentSchema = dto({
  name: z.string(),
  title: optionalString,
  description: optionalString,
  required: optionalBoolean,
});
export const ResponsePromptSchema = dto({
  name: z.string().min(1),
  enabled: enabledFlag,
  title: optionalString,
  description: optionalString,
  arguments: z.array(ResponsePromptArgumentSchema).nullish().transform((v) => v ?? undefined),
});
export type ResponsePrompt = z.output<typeof ResponsePromptSchema>;
/** `ResponseListPrompts` is a list of prompts; an object `{ prompts }` is accepted for tolerance. */
export const ResponseListPromptsSchema = z.union([
  z.array(ResponsePromptSchema),
  dto({ prompts: z.array(ResponsePromptSchema) }).transform((v) => v.prompts),
]);
export const ResponseListPromptsDataSchema = responseDataSchema(ResponseListPromptsSchema);

export const RequestGetPromptSchema = dto({
  requestId: z.string(),
  name: z.string(),
  arguments: jsonObject.nullish().transform((v) => v ?? {}),
});
export type RequestGetPrompt = z.output<typeof RequestGetPromptSchema>;

export const ResponsePromptMessageSchema = dto({ role: roleSchema, content: ContentBlockSchema });
export const ResponseGetPromptSchema = dto({
  requestId: z.string().default(''),
  status: responseStatusSchema.default(ResponseStatus.Error),
  description: optionalString,
  messages: z.array(ResponsePromptMessageSchema).nullish().transform((v) => v ?? []),
});
export type ResponseGetPrompt = z.output<typeof ResponseGetPromptSchema>;
export const ResponseGetPromptDataSchema = responseDataSchema(ResponseGetPromptSchema);
