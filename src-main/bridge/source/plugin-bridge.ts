/**
 * The bridge's public face, assembled from its parts: the tools for the catalogue, the selection
 * tools, the prompts and resources (with completion, subscriptions and log lines) for the MCP room,
 * the system tools for `/api/system-tools`, project routing for the console, and the plugin views.
 */
import type { CompleteRequest, Prompt, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { AgentRequestContext, AgentScope, PluginView, ResourceUpdate, ToolDescriptor, ToolSource } from '../../contracts/index.js';
import { TypedEmitter } from '../../shared/index.js';
import { ProjectSelectionTools, type ProjectRoutingControl } from '../projects/index.js';
import type { DuplicateToolDiagnostic, ListDegradedDiagnostic } from '../registry/index.js';
import { complete } from './completion.js';
import { AwaitedExpiry, relayRegistryEvents, type BridgeEvents } from './events.js';
import { promptDescriptor, resourceDescriptor, toolDescriptor } from './mcp-shapes.js';
import type { AgentLogEntry, SourceContext } from './plugin-port.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, listResourceTemplates, readResource } from './resources.js';
import { ResourceSubscriptions } from './subscriptions.js';
import { BridgeSystemTools } from './system-tools.js';
import { BridgeTools } from './tools.js';

export interface PluginBridge {
  /** The bridged plugins' tools (source id `bridge`). */
  readonly tools: BridgeTools;
  /** `list_engine_instances` and `select_engine_instance`, published with project-routing=multi; listed before `tools` so no plugin shadows them. */
  readonly selectionTools: ToolSource;
  readonly content: BridgeContent;
  readonly systemTools: BridgeSystemTools;
  readonly projects: ProjectRoutingControl;
  readonly events: TypedEmitter<BridgeEvents>;
  /** Connected and awaited plugins for the console. */
  pluginViews(): PluginView[];
  diagnostics(): DuplicateToolDiagnostic[];
  /** Plugins whose prompts or resources list failed and currently contribute none. */
  degradedLists(): ListDegradedDiagnostic[];
  /** What one connection publishes (enabled or not), in MCP shapes, for the console's plugin view. */
  pluginCatalogue(connectionId: string): { tools: ToolDescriptor[]; prompts: Prompt[]; resources: Resource[] } | undefined;
  /** Changes the whole-call deadline for later tool, prompt and resource calls (the operator's runtime setting). */
  setCallTimeout(timeoutMs: number): void;
  /** What the MCP extension holds right now, for leak checks: calls, pending agent requests, subscribed URIs. */
  extensionCounts(): { calls: number; nested: number; subscribedResources: number };
  /** Calls waiting for a plugin to connect or publish its tools, for leak checks. */
  waitingCalls(): number;
  /** Stops listening to the registry and the hub and clears timers. */
  dispose(): void;
}

/**
 * Prompts, resources, completion, subscriptions and plugin log lines for the agent's project, in the
 * MCP SDK's shapes: what the MCP room's ContentSource asks for (mcp/content-source.ts documents each).
 */
function bridgeContent(context: SourceContext, events: TypedEmitter<BridgeEvents>, subscriptions: ResourceSubscriptions) {
  return {
    listPrompts: (scope?: AgentScope) => listPrompts(context, scope),
    getPrompt: (name: string, args: Record<string, string> = {}, scope?: AgentScope, asking?: AgentRequestContext) => getPrompt(context, name, args, scope, asking),
    listResources: (scope?: AgentScope) => listResources(context, scope),
    listResourceTemplates: (scope?: AgentScope) => listResourceTemplates(context, scope),
    readResource: (uri: string, scope?: AgentScope, asking?: AgentRequestContext) => readResource(context, uri, scope, asking),
    onPromptsChanged: (listener: () => void) => events.on('promptsChanged', () => listener()),
    onResourcesChanged: (listener: () => void) => events.on('resourcesChanged', () => listener()),
    complete: (params: CompleteRequest['params'], scope?: AgentScope) => complete(context, params, scope),
    subscribe: (uri: string, scope?: AgentScope) => subscriptions.subscribe(uri, scope),
    onResourceUpdated: (listener: (update: ResourceUpdate) => void) => events.on('resourceUpdated', listener),
    onLog: (listener: (entry: AgentLogEntry) => void) => events.on('agentLog', listener),
  };
}
export type BridgeContent = ReturnType<typeof bridgeContent>;

export interface PluginBridgeParts {
  context: SourceContext;
  events: TypedEmitter<BridgeEvents>;
  subscriptions: ResourceSubscriptions;
  /** Unregisters what the hub adapter registered. */
  disposers: ReadonlyArray<() => void>;
}

export function createPluginBridge({ context, events, subscriptions, disposers }: PluginBridgeParts): PluginBridge {
  const { projects, port, settings } = context;
  const expiry = new AwaitedExpiry(projects, settings.now);
  const tools = new BridgeTools(context);
  const offRegistry = [
    ...relayRegistryEvents(projects, events),
    projects.events.on('pluginUpdated', (view) => {
      if (view.state === 'awaited') expiry.schedule();
      else subscriptions.resubscribe(view.connectionId);
    }),
    projects.events.on('pluginConnected', (view) => subscriptions.resubscribe(view.connectionId)),
  ];
  const content = bridgeContent(context, events, subscriptions);
  return {
    tools,
    selectionTools: new ProjectSelectionTools(projects),
    content,
    systemTools: new BridgeSystemTools(context, tools),
    projects,
    events,
    pluginViews: () => projects.views(settings.now()),
    diagnostics: () => projects.diagnostics(),
    degradedLists: () => projects.degradedLists(),
    pluginCatalogue(connectionId) {
      const record = projects.get(connectionId);
      if (!record) return undefined;
      return {
        tools: record.catalogue.tools.map(toolDescriptor),
        prompts: record.catalogue.prompts.map(promptDescriptor),
        resources: record.catalogue.resources.map(resourceDescriptor),
      };
    },
    setCallTimeout(timeoutMs) {
      settings.timeoutMs = timeoutMs;
    },
    extensionCounts: () => ({ ...port.activeCounts(), subscribedResources: subscriptions.count() }),
    waitingCalls: () => projects.waitingCalls(),
    dispose() {
      for (const off of [...offRegistry, ...disposers]) off();
      expiry.dispose();
    },
  };
}
