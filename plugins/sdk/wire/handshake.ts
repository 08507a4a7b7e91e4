/** The version handshake pair; both keep their explicit camelCase names on every side. */
import { z } from 'zod';
import { ExtensionsSchema } from './extension.js';
import { dto, optionalString } from './reading.js';

export const RequestVersionHandshakeSchema = dto({
  requestId: z.string().default(''),
  apiVersion: z.string(),
  pluginVersion: z.string().default(''),
  environment: z.string().default(''),
  /** Since McpPlugin 8.14; absent for older plugins, which keep the 8.0-era behaviour. */
  mcpPluginVersion: optionalString,
  /** Junction MCP extension (extension.ts); absent for every McpPlugin client. */
  extensions: ExtensionsSchema.optional(),
});
export type RequestVersionHandshake = z.output<typeof RequestVersionHandshakeSchema>;

export const VersionHandshakeResponseSchema = dto({
  apiVersion: z.string(),
  serverVersion: z.string(),
  compatible: z.boolean(),
  message: z.string().nullish().transform((v) => v ?? ''),
  /** What the server supports of the extension; sent only to plugins that declared `extensions`. */
  extensions: ExtensionsSchema.optional(),
});
export type VersionHandshakeResponse = z.output<typeof VersionHandshakeResponseSchema>;
