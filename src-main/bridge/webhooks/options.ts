/** Validation shared by both webhook kinds: settings come from the command line, env or a settings file. */
import { z } from 'zod';
import { JunctionError } from '../../contracts/index.js';

export const DEFAULT_HEADER_NAME = 'X-Webhook-Token';
export const DEFAULT_TIMEOUT_MS = 10_000;

export const webhookUrl = z
  .string()
  .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), { message: 'must be an http(s) URL' });

// An HTTP field name (RFC 9110 token), so a bad setting fails at start rather than on every send.
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be a valid HTTP header name');

export const commonWebhookOptions = z.object({
  token: z.string().min(1).optional(),
  headerName: headerName.default(DEFAULT_HEADER_NAME),
  timeoutMs: z.number().int().positive().default(DEFAULT_TIMEOUT_MS),
});

/** Parses settings or throws `ConfigInvalid` naming every bad field. */
export function parseOptions<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new JunctionError('ConfigInvalid', `Invalid ${what} settings: ${problems.join('; ')}`, { details: { problems } });
}
