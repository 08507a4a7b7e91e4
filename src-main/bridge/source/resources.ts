/** Plugins' resources and templates for an agent's project, and reading one from the plugin that serves it. */
import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { matchesUriTemplate } from '../../../plugins/sdk/wire/index.js';
import { JunctionError, type AgentRequestContext, type AgentScope } from '../../contracts/index.js';
import { enabledResources, enabledTemplates, type PluginRecord } from '../registry/index.js';
import { resourceDescriptor, resourceResult, resourceTemplateDescriptor } from './mcp-shapes.js';
import { answerOf, askPlugin } from './plugin-answers.js';
import type { SourceContext } from './plugin-port.js';
import { contentOwners, firstBy, pluginsFor, pluginsForRequest } from './scope.js';

/** The plugin that serves `uri`: one listing it, else one whose template matches it. */
export function resourceOwnerAmong(active: readonly PluginRecord[], uri: string): PluginRecord | undefined {
  return (
    active.find((r) => enabledResources(r).some((res) => res.uri === uri)) ??
    active.find((r) => enabledTemplates(r).some((t) => matchesUriTemplate(t.uriTemplate, uri)))
  );
}

export function listResources(context: SourceContext, scope?: AgentScope): ListResourcesResult {
  return { resources: firstBy(contentOwners(context, scope, pluginsFor(context.projects, scope)).flatMap((r) => enabledResources(r)), (r) => r.uri).map(resourceDescriptor) };
}

export function listResourceTemplates(context: SourceContext, scope?: AgentScope): ListResourceTemplatesResult {
  const templates = firstBy(contentOwners(context, scope, pluginsFor(context.projects, scope)).flatMap((r) => enabledTemplates(r)), (t) => t.uriTemplate);
  return { resourceTemplates: templates.map(resourceTemplateDescriptor) };
}

/** Throws JunctionError `ResourceNotFound`, `PluginUnavailable`, `ToolTimeout` or `InternalError`; `asking` is the agent the plugin may ask meanwhile. */
export async function readResource(context: SourceContext, uri: string, scope?: AgentScope, asking?: AgentRequestContext): Promise<ReadResourceResult> {
  const { port, settings } = context;
  const owner = resourceOwnerAmong(contentOwners(context, scope, pluginsForRequest(context.projects, scope)), uri);
  if (!owner) throw new JunctionError('ResourceNotFound', `No connected plugin publishes the resource '${uri}'.`);
  const what = `resource '${uri}'`;
  const envelope = await askPlugin(() => port.readResource(owner.connectionId, uri, { timeoutMs: settings.timeoutMs, ...(asking ? { asking } : {}) }), what, settings.timeoutMs);
  return resourceResult(answerOf(envelope, 'ResourceNotFound', what));
}
