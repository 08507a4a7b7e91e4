/**
 * The plugin every reliability scenario drives: a real SDK plugin with an `echo` tool that records
 * each call id it executes and a `slow` tool that waits (honouring cancellation), so a test can
 * count executions per id and hold a call in flight while it injects a fault.
 */
import { z } from 'zod';
import { createPlugin, ToolUnavailableError, type McpPlugin, type PluginRole } from '../../../plugins/sdk/index.js';

export interface ProbePluginOptions {
  endpoint: string;
  role: PluginRole;
  name: string;
  /** Prefix for the tool names, so an editor and a runtime probe publish distinct tools. */
  prefix: string;
  token?: string;
  reconnectDelaysMs?: number[];
  /** Called when a `slow` call starts running in the plugin. */
  onSlowStarted?: (id: string) => void;
  /** Ids whose first `echo` attempt fails as not executed, so the bridge must re-send them. */
  refuseFirstAttempt?: (id: string) => boolean;
}

export interface ProbePlugin {
  plugin: McpPlugin;
  /** Times each call id was actually executed (a not-executed refusal does not count). */
  executions: Map<string, number>;
  refusals: Map<string, number>;
  tools: { echo: string; slow: string };
}

const SLOW_MAX_MS = 60_000;

export function createProbePlugin(options: ProbePluginOptions): ProbePlugin {
  const plugin = createPlugin({
    name: options.name,
    version: '1.0.0',
    role: options.role,
    endpoint: options.endpoint,
    skipNegotiation: true,
    ...(options.token ? { token: options.token } : {}),
    reconnectDelaysMs: options.reconnectDelaysMs ?? [100, 250, 500],
  });
  const executions = new Map<string, number>();
  const refusals = new Map<string, number>();
  const tools = { echo: `${options.prefix}echo`, slow: `${options.prefix}slow` };

  plugin.tool({
    name: tools.echo,
    description: 'Records the call id and returns it.',
    input: z.object({ id: z.string().min(1) }),
    handler: ({ id }) => {
      if (options.refuseFirstAttempt?.(id) && !refusals.has(id)) {
        refusals.set(id, 1);
        throw new ToolUnavailableError('probe is reloading', { notExecuted: true });
      }
      executions.set(id, (executions.get(id) ?? 0) + 1);
      return { id };
    },
  });

  plugin.tool({
    name: tools.slow,
    description: 'Waits `ms` milliseconds (or until cancelled), then returns the call id.',
    input: z.object({ id: z.string().min(1), ms: z.number().int().min(0).max(SLOW_MAX_MS) }),
    handler: async ({ id, ms }, ctx) => {
      options.onSlowStarted?.(id);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      executions.set(id, (executions.get(id) ?? 0) + 1);
      return { id };
    },
  });

  return { plugin, executions, refusals, tools };
}
