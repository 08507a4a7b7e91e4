/** Reading what a plugin sent to a hub method, and acknowledging it, as McpPlugin.Server does. */
import type { z } from 'zod';
import { successData, toDotNetWire } from '../../../plugins/sdk/wire/index.js';
import { issuesText } from '../calls/index.js';
import { HubMethodError, type HubConnection } from '../signalr/index.js';

/** The hub adapter's reading (case-tolerant, refusals logged once) and acknowledgement of plugin payloads. */
export interface HubWire {
  /** The payload, or a refusal the plugin receives as its invocation error (reported once through `warn`). */
  read<T extends z.ZodType>(connection: HubConnection, method: string, schema: T, raw: unknown): z.output<T>;
  /** What McpPlugin.Server answers a notification: success, echoing the caller's request id. */
  acknowledged(requestId: string, message?: string): unknown;
}

export function hubWire(warn: (connectionId: string, message: string) => void): HubWire {
  return {
    read(connection, method, schema, raw) {
      const parsed = schema.safeParse(raw);
      if (parsed.success) return parsed.data;
      const message = `Invalid ${method} payload: ${issuesText(parsed.error)}`;
      warn(connection.id, message);
      throw new HubMethodError(message);
    },
    acknowledged: (requestId, message) => toDotNetWire({ ...successData(requestId), message }),
  };
}
