/**
 * Completion for a prompt or resource-template argument by the plugin of the agent's project that
 * publishes it; a plugin that did not declare the extension's `completion` feature offers no values.
 */
import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestCompletion } from '../../../plugins/sdk/wire/index.js';
import { JunctionError, type AgentScope } from '../../contracts/index.js';
import { answerOf, askPlugin } from './plugin-answers.js';
import type { SourceContext } from './plugin-port.js';
import { contentOwners, pluginsForRequest } from './scope.js';

/** Throws `CompletionRefNotFound` (and the failures of any plugin request). */
export async function complete(context: SourceContext, params: CompleteRequest['params'], scope?: AgentScope): Promise<CompleteResult['completion']> {
  const { port, settings } = context;
  const { ref } = params;
  const active = contentOwners(context, scope, pluginsForRequest(context.projects, scope));
  const owner =
    ref.type === 'ref/prompt'
      ? active.find((r) => r.catalogue.prompts.some((p) => p.name === ref.name))
      : active.find((r) => r.catalogue.templates.some((t) => t.uriTemplate === ref.uri) || r.catalogue.resources.some((res) => res.uri === ref.uri));
  const what = ref.type === 'ref/prompt' ? `prompt '${ref.name}'` : `resource template '${ref.uri}'`;
  if (!owner) throw new JunctionError('CompletionRefNotFound', `No connected plugin publishes the ${what}.`);
  if (!owner.handshake?.features.includes('completion')) return { values: [] };
  const request: Omit<RequestCompletion, 'requestId'> = {
    ref: ref.type === 'ref/prompt' ? { type: ref.type, name: ref.name } : { type: ref.type, uri: ref.uri },
    argument: { name: params.argument.name, value: params.argument.value },
    ...(params.context?.arguments ? { context: { arguments: params.context.arguments } } : {}),
  };
  const envelope = await askPlugin(() => port.complete(owner.connectionId, request, settings.timeoutMs), `completion of ${what}`, settings.timeoutMs);
  const { values, total, hasMore } = answerOf(envelope, 'CompletionRefNotFound', `completion of ${what}`);
  return { values, ...(total === undefined ? {} : { total }), ...(hasMore === undefined ? {} : { hasMore }) };
}
