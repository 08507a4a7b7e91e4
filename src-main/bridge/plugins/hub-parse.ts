/** Validation of what a plugin sends to a hub method: a failure becomes the invocation's error for the plugin. */
import type { z } from 'zod';
import { HubMethodError } from '../signalr/index.js';

export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HubMethodError(`Invalid ${what}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '$'} ${i.message}`).join('; ')}`);
  return parsed.data;
}
