/** The envelope every hub result travels in (`ResponseData<T>`), and the content blocks results carry. */
import { z } from 'zod';
import { errorKindSchema, ResponseErrorKind, ResponseStatus, responseStatusSchema } from './enums.js';
import { dto, looseDto, optionalInt, optionalString } from './reading.js';

/**
 * An MCP content block (text, image, audio, resource…) in McpPlugin's ContentBlock shape; the fields
 * it names are read case-insensitively, others (`annotations`, `_meta`, a resource link's `uri`…) pass through,
 * and nothing here is required beyond `type`: a block MCP cannot carry becomes text later, never a refused reply.
 */
export const ContentBlockSchema = looseDto({
  type: z.string(),
  text: z.string().nullish(),
  data: z.string().nullish(),
  mimeType: z.string().nullish(),
  resource: looseDto({ uri: z.string().nullish(), mimeType: z.string().nullish(), text: z.string().nullish(), blob: z.string().nullish() }).nullish(),
});
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

export const responseDataFields = {
  requestId: z.string().default(''),
  status: responseStatusSchema,
  message: optionalString,
  errorKind: errorKindSchema.nullish().transform((v) => v ?? ResponseErrorKind.None),
  httpStatusCode: optionalInt,
};

/** The envelope around a payload schema; `value` carries the payload. */
export function responseDataSchema<T extends z.ZodType>(value: T) {
  return dto({ ...responseDataFields, value: value.nullish() });
}
export const ResponseDataSchema = dto(responseDataFields);
export type ResponseData<T = undefined> = z.output<typeof ResponseDataSchema> & { value?: T | null };

/** The acknowledgement-only request most notifications carry. */
export const RequestIdOnlySchema = dto({ requestId: z.string().default('') });

/** A successful envelope around `value`. */
export function successData<T>(requestId: string, value?: T): ResponseData<T> {
  return value === undefined
    ? { requestId, status: ResponseStatus.Success, errorKind: ResponseErrorKind.None, message: undefined, httpStatusCode: undefined }
    : { requestId, status: ResponseStatus.Success, errorKind: ResponseErrorKind.None, message: undefined, httpStatusCode: undefined, value };
}

/** A failed envelope; `errorKind` and `httpStatusCode` say why (see ResponseErrorKind). */
export function errorData(requestId: string, message: string, errorKind: ResponseErrorKind, httpStatusCode?: number): ResponseData<never> {
  return { requestId, status: ResponseStatus.Error, message, errorKind, httpStatusCode };
}
