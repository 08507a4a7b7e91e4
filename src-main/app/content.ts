/**
 * The prompts and resources agents see: the host's own (workspace files, `use-tool`) ahead of the
 * bridged plugins', which report each use to the analytics webhooks.
 */
import type { AnalyticsWebhooks } from '../bridge/webhooks/index.js';
import type { Host } from '../host/index.js';
import type { Catalogue, ContentSource } from '../mcp/index.js';
import { HostContent } from './host-content.js';

async function timed<T>(work: () => Promise<T>, report: (status: 'success' | 'error', durationMs: number) => void): Promise<T> {
  const started = Date.now();
  try {
    const result = await work();
    report('success', Date.now() - started);
    return result;
  } catch (error) {
    report('error', Date.now() - started);
    throw error;
  }
}

function bridgeContentSource(bridge: ContentSource, analytics: AnalyticsWebhooks): ContentSource {
  if (!analytics.enabled) return bridge;
  return {
    listPrompts: (scope) => bridge.listPrompts(scope),
    listResources: (scope) => bridge.listResources(scope),
    listResourceTemplates: (scope) => bridge.listResourceTemplates(scope),
    onPromptsChanged: (l) => bridge.onPromptsChanged(l),
    onResourcesChanged: (l) => bridge.onResourcesChanged(l),
    complete: (params, scope) => bridge.complete(params, scope),
    subscribe: (uri, scope) => bridge.subscribe(uri, scope),
    onResourceUpdated: (l) => bridge.onResourceUpdated(l),
    onLog: (l) => bridge.onLog(l),
    getPrompt: (name, args, scope, asking) =>
      timed(() => bridge.getPrompt(name, args, scope, asking), (status, durationMs) => analytics.emit('prompt', 'prompt.get.completed', { promptName: name, status, durationMs })),
    readResource: (uri, scope, asking) =>
      timed(() => bridge.readResource(uri, scope, asking), (status, durationMs) => analytics.emit('resource', 'resource.read.completed', { uri, status, durationMs })),
  };
}

/** The host's names win: a plugin prompt or template the host also publishes is hidden rather than shadowing it. */
function withHostContent(host: HostContent, plugins: ContentSource): ContentSource {
  const isHostTemplate = (uri: string) => host.resourceTemplates().some((t) => t.uriTemplate === uri);
  return {
    async listPrompts(scope) {
      const { prompts, ...rest } = await plugins.listPrompts(scope);
      return { ...rest, prompts: [...host.prompts(), ...prompts.filter((p) => !host.ownsPrompt(p.name))] };
    },
    listResources: (scope) => plugins.listResources(scope),
    async listResourceTemplates(scope) {
      const { resourceTemplates, ...rest } = await plugins.listResourceTemplates(scope);
      return { ...rest, resourceTemplates: [...host.resourceTemplates(), ...resourceTemplates.filter((t) => !isHostTemplate(t.uriTemplate))] };
    },
    onPromptsChanged: (l) => plugins.onPromptsChanged(l),
    onResourcesChanged: (l) => plugins.onResourcesChanged(l),
    complete: async (params, scope) => host.complete(params, scope) ?? plugins.complete(params, scope),
    subscribe: async (uri, scope) => (host.ownsResource(uri) ? host.subscribe(uri) : plugins.subscribe(uri, scope)),
    onResourceUpdated(listener) {
      const offs = [host.onResourceUpdated(listener), plugins.onResourceUpdated(listener)];
      return () => offs.forEach((off) => off());
    },
    onLog: (l) => plugins.onLog(l),
    getPrompt: async (name, args, scope, asking) => (host.ownsPrompt(name) ? host.getPrompt(name, args, scope) : plugins.getPrompt(name, args, scope, asking)),
    readResource: async (uri, scope, asking) => (host.ownsResource(uri) ? host.readResource(uri) : plugins.readResource(uri, scope, asking)),
  };
}

/**
 * What agents see besides tools: the host's content ahead of the bridged plugins'. Subscribers of a
 * workspace file hear when its text changes, until the MCP part that holds this is disposed.
 */
export function agentContent(parts: { host: Host; plugins: ContentSource; analytics: AnalyticsWebhooks }): (catalogue: Catalogue) => { source: ContentSource; dispose(): void } {
  return (catalogue) => {
    const { host } = parts;
    const hostContent = new HostContent({
      workspaces: { list: () => host.extensions.workspaces.list(), resolve: (selector) => host.extensions.workspaces.resolve(selector) },
      tools: (scope) => catalogue.listTools(scope),
    });
    const off = host.events.on('workspace.updated', () => hostContent.workspaceChanged());
    return { source: withHostContent(hostContent, bridgeContentSource(parts.plugins, parts.analytics)), dispose: off };
  };
}
