/**
 * The call guard: one agent call from routing to outcome. Every plugin gets the lone-surrogate
 * refusal and routing; 8.14+ plugins also get argument validation, one whole-call deadline and the
 * re-send of calls they answered `notExecuted` (after a reconnect, or every resend interval while
 * connected, within the reconnect wait), ending in 503 `[plugin_reloading]`. Older plugins' calls are
 * forwarded unvalidated and their errors are not rewritten; the same whole-call deadline bounds them.
 */
import { randomUUID } from 'node:crypto';
import type { RequestCallTool } from '../../../plugins/sdk/wire/index.js';
import { onAbort, withFields } from '../../shared/index.js';
import type { CallContext, ToolOutcome } from '../../contracts/index.js';
import { validateArguments } from './arguments.js';
import { CallDeadline } from './call-deadline.js';
import { cancelledOutcome, InvokeFailure, invokeFailureOutcome, notFoundOutcome, timeoutOutcome } from './failures.js';
import { bridgeFailure, isNotExecuted, outcomeFromReply, pluginReloadingOutcome, type PluginReply } from './outcome.js';
import { routeTool, type PluginRegistry } from '../registry/index.js';

export interface ToolCallOptions {
  deadline: CallDeadline;
  signal: AbortSignal;
  onProgress?: CallContext['progress'];
  agentRequests?: CallContext['agentRequests'];
  onLongRunning?: CallContext['longRunning'];
}

export interface ToolInvoker {
  /** Runs the call on one connection within what is left of `deadline`; rejects with InvokeFailure when no reply arrives. */
  invokeTool(connectionId: string, request: RequestCallTool, options: ToolCallOptions): Promise<PluginReply>;
}

export interface GuardSettings {
  timeoutMs: number;
  reconnectWaitMs: number;
  resendIntervalMs: number;
  now: () => number;
}

const NOT_SENT_PAUSE_MS = 25;

/**
 * Resolves when a plugin's catalogue arrives, after `ms`, or on abort, whichever is first. Only calls
 * that find no plugin ready wait here, so this keeps its own timer, ref'd: a waiting call holds the
 * process open as a pending request would.
 */
function waitForPlugin(registry: PluginRegistry, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      off();
      stopWatching();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const off = registry.events.on('ready', done);
    const stopWatching = onAbort(signal, done);
  });
}

export async function guardedCall(
  registry: PluginRegistry,
  invoker: ToolInvoker,
  settings: GuardSettings,
  tool: string,
  args: Record<string, unknown>,
  ctx: CallContext,
): Promise<ToolOutcome> {
  const started = settings.now();
  const deadline = new CallDeadline(settings.timeoutMs, settings.now);
  let windowEnd: number | undefined;
  let validated = false;

  for (;;) {
    if (ctx.signal.aborted) return cancelledOutcome(tool);
    const now = settings.now();
    const decision = routeTool(tool, registry.active(), registry.awaited(now), now);
    if (decision.kind === 'notFound') return notFoundOutcome(tool);
    if (decision.kind === 'wait') {
      const left = deadline.remaining();
      if (left <= 0) return timeoutOutcome(tool, settings.timeoutMs, `the ${decision.role} plugin that serves it was not back or ready in time`);
      await waitForPlugin(registry, Math.min(decision.until - now, left), ctx.signal);
      continue;
    }

    const record = registry.get(decision.connectionId);
    const descriptor = record?.catalogue.tools.find((t) => t.name === tool);
    if (!record || !descriptor) return notFoundOutcome(tool);

    if (record.guarded && !validated) {
      const checked = validateArguments(descriptor, args);
      // Awaited only on a tool's first call (its validator is compiled then), not on every call.
      const problems = Array.isArray(checked) ? checked : await checked;
      if (problems.length) {
        const summary = problems.map((p) => `${p.path} ${p.message}`).join('; ');
        return bridgeFailure(tool, 'InvalidArguments', `Invalid arguments for '${tool}': ${summary}`, { problems });
      }
      validated = true;
    }

    if (deadline.remaining() <= 0) return timeoutOutcome(tool, settings.timeoutMs, 'before the plugin was reached');
    let reply: PluginReply;
    // Optional fields are assigned rather than spread from conditional literals: this runs on every call.
    const request: RequestCallTool = { requestId: randomUUID(), name: tool, arguments: args };
    if (ctx.traceparent) request.traceparent = ctx.traceparent;
    const options: ToolCallOptions = { deadline, signal: ctx.signal };
    if (ctx.progress) options.onProgress = ctx.progress;
    if (ctx.agentRequests) options.agentRequests = ctx.agentRequests;
    if (ctx.longRunning) options.onLongRunning = ctx.longRunning;
    try {
      reply = await invoker.invokeTool(record.connectionId, request, options);
    } catch (error) {
      if (!(error instanceof InvokeFailure)) throw error;
      if (error.reason === 'notSent' && deadline.remaining() > 0) {
        // The hub has not reported the close yet; give the registry a moment to learn it, then route again.
        await waitForPlugin(registry, NOT_SENT_PAUSE_MS, ctx.signal);
        continue;
      }
      return invokeFailureOutcome(tool, error, settings.timeoutMs);
    }

    if (!record.guarded || !isNotExecuted(reply)) {
      const servedBy: NonNullable<ToolOutcome['servedBy']> = { connectionId: record.connectionId, name: record.name, role: record.role };
      if (record.handshake) servedBy.pluginVersion = record.handshake.pluginVersion;
      return withFields(outcomeFromReply(tool, reply, record.guarded), { servedBy });
    }

    const after = settings.now();
    windowEnd ??= Math.min(after + settings.reconnectWaitMs, after + deadline.remaining());
    if (after >= windowEnd) return pluginReloadingOutcome(tool, reply, after - started);
    await waitForPlugin(registry, Math.min(settings.resendIntervalMs, windowEnd - after), ctx.signal);
    if (settings.now() >= windowEnd) return pluginReloadingOutcome(tool, reply, settings.now() - started);
  }
}
