/** Bridged prompts and resources for the MCP room, reporting each use to the analytics webhooks. */
import type { AnalyticsWebhooks } from '../bridge/webhooks/index.js';
import type { ContentSource } from '../mcp/index.js';

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

export function bridgeContentSource(bridge: ContentSource, analytics: AnalyticsWebhooks): ContentSource {
  if (!analytics.enabled) return bridge;
  return {
    listPrompts: (scope) => bridge.listPrompts(scope),
    listResources: (scope) => bridge.listResources(scope),
    listResourceTemplates: (scope) => bridge.listResourceTemplates(scope),
    onPromptsChanged: (l) => bridge.onPromptsChanged(l),
    onResourcesChanged: (l) => bridge.onResourcesChanged(l),
    complete: (params) => bridge.complete(params),
    subscribe: (uri) => bridge.subscribe(uri),
    unsubscribe: (uri) => bridge.unsubscribe(uri),
    onResourceUpdated: (l) => bridge.onResourceUpdated(l),
    onLog: (l) => bridge.onLog(l),
    getPrompt: (name, args, scope) =>
      timed(() => bridge.getPrompt(name, args, scope), (status, durationMs) => analytics.emit('prompt', 'prompt.get.completed', { promptName: name, status, durationMs })),
    readResource: (uri, scope) =>
      timed(() => bridge.readResource(uri, scope), (status, durationMs) => analytics.emit('resource', 'resource.read.completed', { uri, status, durationMs })),
  };
}
