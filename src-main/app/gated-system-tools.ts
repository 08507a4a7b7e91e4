/**
 * Plugin system tools (`/api/system-tools`) never pass the MCP catalogue or its dispatcher, so the
 * composition root puts the approval policy in front of them here: every tool call passes one policy.
 * They match rules by their own names, as bridged tools (`source: bridge`); their annotations are not
 * known at call time, so MCP's defaults apply (destructive, open world).
 */
import { randomUUID } from 'node:crypto';
import type { SystemToolProvider } from '../mcp/index.js';
import type { CallGate } from '../contracts/index.js';
import { errorOutcome, type ToolTarget } from '../contracts/index.js';

export function gatedSystemTools(provider: SystemToolProvider, gate: CallGate, targetOf: (connectionId: string) => ToolTarget): SystemToolProvider {
  return {
    systemToolTarget: (scope) => provider.systemToolTarget(scope),
    ...(provider.explainMissing ? { explainMissing: (name, scope) => provider.explainMissing?.(name, scope) } : {}),
    listSystemTools: (connectionId) => provider.listSystemTools(connectionId),
    async callSystemTool(connectionId, name, args, signal) {
      const verdict = await gate.authorize({
        callId: randomUUID(),
        tool: name,
        descriptor: { name, description: 'A plugin system tool (reachable over /api/system-tools only).', inputSchema: { type: 'object' } },
        target: targetOf(connectionId),
        agent: 'http system-tools',
        agentName: 'http',
        session: 'http-api:system-tools',
        transport: 'http-api',
        args,
        signal,
      });
      if (!verdict.allowed) return errorOutcome(verdict.error);
      return provider.callSystemTool(connectionId, name, verdict.args, signal);
    },
  };
}
