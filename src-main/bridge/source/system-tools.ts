/**
 * A plugin's system tools (McpPlugin's RunListSystemTool / RunSystemTool) for `/api/system-tools`:
 * never published to MCP agents, run on the preferred live plugin of the caller's project as
 * McpPlugin.Server resolves its one connection, bounded by the whole-call deadline.
 */
import { randomUUID } from 'node:crypto';
import type { AgentScope, ToolDescriptor, ToolOutcome, ToolTarget } from '../../contracts/index.js';
import { bridgeFailure, InvokeFailure, invokeFailureOutcome, outcomeFromReply, type PluginReply } from '../calls/index.js';
import { toolDescriptor } from './mcp-shapes.js';
import type { SourceContext } from './plugin-port.js';
import { connectionTarget, pluginsFor } from './scope.js';
import type { BridgeTools } from './tools.js';

/** A system-tools answer for the direct HTTP API: the list, or the failure as a tool outcome. */
export type SystemToolList = { ok: true; tools: ToolDescriptor[] } | { ok: false; outcome: ToolOutcome };

export class BridgeSystemTools {
  constructor(
    private readonly context: SourceContext,
    private readonly tools: Pick<BridgeTools, 'explainMissing'>,
  ) {}

  /** The plugin that runs system tools for `scope`: none when a pin matches no project. */
  systemToolTarget(scope?: AgentScope): string | undefined {
    return pluginsFor(this.context.projects, scope)[0]?.connectionId;
  }

  /** Why a pinned request has no plugin, as for tools. */
  explainMissing(name: string, scope?: AgentScope): ToolOutcome | undefined {
    return this.tools.explainMissing(name, scope);
  }

  /** Who runs a system tool on `connectionId`, as the approval policy matches it. */
  targetOfConnection(connectionId: string): ToolTarget {
    return connectionTarget(this.context, connectionId);
  }

  async listSystemTools(connectionId: string): Promise<SystemToolList> {
    const { port, settings } = this.context;
    try {
      const tools = await port.listSystemTools(connectionId, settings.timeoutMs);
      return { ok: true, tools: tools.filter((t) => t.enabled).map(toolDescriptor) };
    } catch (error) {
      if (!(error instanceof InvokeFailure)) throw error;
      return { ok: false, outcome: invokeFailureOutcome('system tools', error, settings.timeoutMs) };
    }
  }

  /** Its errors are forwarded as McpPlugin.Server forwards them (the plugin's own status and message). */
  async callSystemTool(connectionId: string, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome> {
    const { projects, port, settings } = this.context;
    if (!projects.get(connectionId)?.handshake) return bridgeFailure(name, 'PluginUnavailable', 'No plugin is connected to run system tools.');
    let reply: PluginReply;
    try {
      reply = await port.invokeSystemTool(connectionId, { requestId: randomUUID(), name, arguments: args }, { timeoutMs: settings.timeoutMs, signal });
    } catch (error) {
      if (!(error instanceof InvokeFailure)) throw error;
      return invokeFailureOutcome(name, error, settings.timeoutMs);
    }
    return outcomeFromReply(name, reply, false);
  }
}
