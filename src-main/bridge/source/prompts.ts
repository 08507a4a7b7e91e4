/** Plugins' prompts for an agent's project: every name once from the preferred plugin (editor first, newest first), and getting one. */
import type { GetPromptResult, ListPromptsResult } from '@modelcontextprotocol/sdk/types.js';
import { ResponseStatus } from '../../../plugins/sdk/wire/index.js';
import { JunctionError, type AgentRequestContext, type AgentScope } from '../../contracts/index.js';
import { enabledPrompts } from '../registry/index.js';
import { promptDescriptor, promptResult } from './mcp-shapes.js';
import { answerOf, askPlugin, pluginFailure } from './plugin-answers.js';
import type { SourceContext } from './plugin-port.js';
import { contentOwners, firstBy, pluginsFor, pluginsForRequest } from './scope.js';

export function listPrompts(context: SourceContext, scope?: AgentScope): ListPromptsResult {
  return { prompts: firstBy(contentOwners(context, scope, pluginsFor(context.projects, scope)).flatMap((r) => enabledPrompts(r)), (p) => p.name).map(promptDescriptor) };
}

/** Throws JunctionError `PromptNotFound`, `PluginUnavailable`, `ToolTimeout` or `InternalError`; `asking` is the agent the plugin may ask meanwhile. */
export async function getPrompt(context: SourceContext, name: string, args: Record<string, string>, scope?: AgentScope, asking?: AgentRequestContext): Promise<GetPromptResult> {
  const { port, settings } = context;
  const owner = contentOwners(context, scope, pluginsForRequest(context.projects, scope)).find((r) => enabledPrompts(r).some((p) => p.name === name));
  if (!owner) throw new JunctionError('PromptNotFound', `No connected plugin publishes a prompt named '${name}'.`);
  const what = `prompt '${name}'`;
  const envelope = await askPlugin(() => port.getPrompt(owner.connectionId, name, args, { timeoutMs: settings.timeoutMs, ...(asking ? { asking } : {}) }), what, settings.timeoutMs);
  const value = answerOf(envelope, 'PromptNotFound', what);
  if (value.status === ResponseStatus.Error) throw pluginFailure(envelope, 'PromptNotFound', what, value.description);
  return promptResult(value);
}
