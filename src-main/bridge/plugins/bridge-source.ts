/**
 * The bridge as a ToolSource: the union of the live plugins' catalogues, calls through routing and
 * the call guard, plus prompts and resources in MCP SDK result shapes and the console's plugin views.
 */
import { randomUUID } from 'node:crypto';
import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  Prompt,
  Resource,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import {
  ResponseErrorKind,
  ResponseStatus,
  matchesUriTemplate,
  type LogLevel,
  type RequestCompletion,
  type ResponseCompletion,
  type RequestCallTool,
  type ResponseData,
  type ResponseGetPrompt,
  type ResponseListTool,
  type ResponseResourceContent,
} from '../../../plugins/sdk/src/protocol.js';
import type { PluginView, AgentScope, ResourceSubscription, ResourceUpdate } from '../../contracts/index.js';
import { JunctionError, type ErrorCode, errorOutcome, type CallContext, type ToolDescriptor, type ToolOutcome, type ToolSource, type ToolTarget } from '../../contracts/index.js';
import { routeTool } from './routing.js';
import { TypedEmitter } from '../../shared/index.js';
import { guardedCall, InvokeFailure, invokeFailureOutcome, type GuardSettings, type ToolInvoker } from './call-guard.js';
import { bridgeFailure, outcomeFromReply, type PluginReply } from './outcome.js';
import {
  promptDescriptor,
  promptResult,
  resourceDescriptor,
  resourceResult,
  resourceTemplateDescriptor,
  toolDescriptor,
} from './catalogue.js';
import type { Project, ProjectRegistry, ProjectResolution } from '../projects/index.js';
import type { DuplicateToolDiagnostic, ListDegradedDiagnostic } from './registry.js';
import { enabledPrompts, enabledResources, enabledTemplates, type PluginRecord } from './records.js';

/** How the bridge reaches a plugin for prompts, resources and system tools (tools go through ToolInvoker). */
export interface PluginPort extends ToolInvoker {
  getPrompt(connectionId: string, name: string, args: Record<string, string>, timeoutMs: number): Promise<ResponseData<ResponseGetPrompt>>;
  readResource(connectionId: string, uri: string, timeoutMs: number): Promise<ResponseData<ResponseResourceContent[]>>;
  complete(connectionId: string, request: Omit<RequestCompletion, 'requestId'>, timeoutMs: number): Promise<ResponseData<ResponseCompletion>>;
  setSubscription(connectionId: string, uri: string, subscribed: boolean, timeoutMs: number): Promise<void>;
  /** Calls in flight and their pending agent requests. */
  activeCounts(): { calls: number; nested: number };
  listSystemTools(connectionId: string, timeoutMs: number): Promise<ResponseListTool[]>;
  invokeSystemTool(connectionId: string, request: RequestCallTool, options: { timeoutMs: number; signal: AbortSignal }): Promise<PluginReply>;
}

/** A system-tools answer for the direct HTTP API: the list, or the failure as a tool outcome. */
export type SystemToolList = { ok: true; tools: ToolDescriptor[] } | { ok: false; outcome: ToolOutcome };

export interface PluginLogEntry {
  connectionId: string;
  /** `bridge`: the bridge's own finding about the plugin (a malformed payload, a failed list); `plugin`: the plugin's NotifyLog. */
  origin: 'bridge' | 'plugin';
  requestId?: string;
  level: LogLevel;
  message: string;
}

/** A plugin log line not tied to a running call, for every agent session. */
export interface AgentLogEntry {
  level: LogLevel;
  logger?: string;
  data: unknown;
}

export interface BridgeEvents {
  pluginConnected: PluginView;
  pluginUpdated: PluginView;
  pluginDisconnected: { connectionId: string };
  promptsChanged: undefined;
  resourcesChanged: undefined;
  diagnostic: DuplicateToolDiagnostic;
  listDegraded: ListDegradedDiagnostic;
  log: PluginLogEntry;
  agentLog: AgentLogEntry;
  /** A plugin said a resource changed (MCP extension); the topic names its project. */
  resourceUpdated: ResourceUpdate;
}

/** A resource's topic: the same URI in two projects is two topics. */
function topicOf(projectKey: string, uri: string): string {
  return `${projectKey}\n${uri}`;
}

/** The plugin that serves `uri`: one listing it, else one whose template matches it. */
function resourceOwnerAmong(active: readonly PluginRecord[], uri: string): PluginRecord | undefined {
  return (
    active.find((r) => enabledResources(r).some((res) => res.uri === uri)) ??
    active.find((r) => enabledTemplates(r).some((t) => matchesUriTemplate(t.uriTemplate, uri)))
  );
}

/** The first item per key; callers pass items in preference order (editor first, newest first). */
function firstBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) if (!byKey.has(key(item))) byKey.set(key(item), item);
  return [...byKey.values()];
}

export class BridgeToolSource implements ToolSource {
  readonly id = 'bridge';
  readonly events = new TypedEmitter<BridgeEvents>();
  private readonly offRegistry: Array<() => void>;
  /** Agent sessions subscribed, per topic (project and resource URI), across sessions. */
  private readonly subscribers = new Map<string, number>();
  /** Per subscribed topic, the plugin connection that was told (RunSubscribeResource) it has subscribers. */
  private readonly toldOwner = new Map<string, string>();
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly registry: ProjectRegistry,
    private readonly port: PluginPort,
    private readonly settings: GuardSettings,
    private readonly disposers: ReadonlyArray<() => void> = [],
  ) {
    const e = registry.events;
    this.offRegistry = [
      e.on('pluginConnected', (view) => this.events.emit('pluginConnected', view)),
      e.on('pluginUpdated', (view) => this.events.emit('pluginUpdated', view)),
      e.on('pluginDisconnected', (gone) => this.events.emit('pluginDisconnected', gone)),
      e.on('promptsChanged', () => this.events.emit('promptsChanged', undefined)),
      e.on('resourcesChanged', () => this.events.emit('resourcesChanged', undefined)),
      e.on('diagnostic', (d) => this.events.emit('diagnostic', d)),
      e.on('listDegraded', (d) => this.events.emit('listDegraded', d)),
      registry.events.on('pluginUpdated', (view) => {
        if (view.state === 'awaited') this.scheduleExpiry();
        else this.resubscribe(view.connectionId);
      }),
      registry.events.on('pluginConnected', (view) => this.resubscribe(view.connectionId)),
    ];
  }

  /** Unscoped: every project's tools (the catalogue resolves names from it); scoped: the session's project. */
  listTools(scope?: AgentScope): readonly ToolDescriptor[] {
    if (scope === undefined || this.registry.mode === 'single') return this.registry.publishedTools().map(({ tool }) => toolDescriptor(tool));
    const resolution = this.registry.resolveQuietly(scope);
    return resolution.kind === 'resolved' ? resolution.project.registry.publishedTools().map(({ tool }) => toolDescriptor(tool)) : [];
  }

  /** A pinned agent whose project is not connected hears which project, not just "unknown tool". */
  explainMissing(_name: string, scope?: AgentScope): ToolOutcome | undefined {
    if (scope?.pin === undefined || this.registry.mode === 'single') return undefined;
    const resolution = this.registry.resolveQuietly(scope);
    return resolution.kind === 'resolved' ? undefined : this.unresolved(resolution);
  }

  async callTool(name: string, args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutcome> {
    const resolution = this.registry.resolve(ctx.scope);
    if (resolution.kind !== 'resolved') return this.unresolved(resolution);
    this.registry.touch(resolution.project);
    const outcome = await guardedCall(resolution.project.registry, this.port, this.settings, name, args, ctx);
    if (!resolution.note) return outcome;
    return { ...outcome, result: { ...outcome.result, content: [...outcome.result.content, { type: 'text', text: resolution.note }] } };
  }

  /** The plugin the router would pick now; a call that must wait for a plugin names only the awaited role. */
  targetOf(name: string): ToolTarget {
    const decision = routeTool(name, this.registry.active(), this.registry.awaited(Date.now()), Date.now());
    if (decision.kind === 'notFound') return { source: 'bridge' };
    if (decision.kind === 'wait') return { source: 'bridge', role: decision.role };
    const record = this.registry.active().find((r) => r.connectionId === decision.connectionId);
    return { source: 'bridge', role: decision.role, connection: decision.connectionId, ...(record?.name ? { plugin: record.name } : {}), ...(record?.project ? { project: record.project } : {}) };
  }

  onToolsChanged(listener: () => void): () => void {
    return this.registry.events.on('toolsChanged', () => listener());
  }

  onPromptsChanged(listener: () => void): () => void {
    return this.events.on('promptsChanged', () => listener());
  }

  onResourcesChanged(listener: () => void): () => void {
    return this.events.on('resourcesChanged', () => listener());
  }

  /**
   * The plugin that runs system tools: the preferred live plugin (editor first, newest first) of the
   * caller's project, as McpPlugin.Server resolves its one connection; none when a pin matches no project.
   */
  systemToolTarget(scope?: AgentScope): string | undefined {
    return this.activeFor(scope)[0]?.connectionId;
  }

  /** RunListSystemTool on one plugin. System tools are never published to MCP. */
  async listSystemTools(connectionId: string): Promise<SystemToolList> {
    try {
      const tools = await this.port.listSystemTools(connectionId, this.settings.timeoutMs);
      return { ok: true, tools: tools.filter((t) => t.enabled).map(toolDescriptor) };
    } catch (error) {
      if (!(error instanceof InvokeFailure)) throw error;
      return { ok: false, outcome: invokeFailureOutcome('system tools', error, this.settings.timeoutMs) };
    }
  }

  /** RunSystemTool on one plugin, bounded by the whole-call deadline; its errors are forwarded as McpPlugin.Server forwards them. */
  async callSystemTool(connectionId: string, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome> {
    if (!this.registry.get(connectionId)?.handshake) return bridgeFailure(name, 'PluginUnavailable', 'No plugin is connected to run system tools.');
    let reply: PluginReply;
    try {
      reply = await this.port.invokeSystemTool(connectionId, { requestId: randomUUID(), name, arguments: args }, { timeoutMs: this.settings.timeoutMs, signal });
    } catch (error) {
      if (!(error instanceof InvokeFailure)) throw error;
      return invokeFailureOutcome(name, error, this.settings.timeoutMs);
    }
    return outcomeFromReply(name, reply, false);
  }

  /** Every prompt name once, from the preferred plugin (editor first, newest first). */
  listPrompts(scope?: AgentScope): ListPromptsResult {
    return { prompts: firstBy(this.activeFor(scope).flatMap((r) => enabledPrompts(r)), (p) => p.name).map(promptDescriptor) };
  }

  /** Throws JunctionError `PromptNotFound`, `PluginUnavailable`, `ToolTimeout` or `InternalError`. */
  async getPrompt(name: string, args: Record<string, string> = {}, scope?: AgentScope): Promise<GetPromptResult> {
    const owner = this.activeFor(scope).find((r) => enabledPrompts(r).some((p) => p.name === name));
    if (!owner) throw new JunctionError('PromptNotFound', `No connected plugin publishes a prompt named '${name}'.`);
    const envelope = await this.ask(() => this.port.getPrompt(owner.connectionId, name, args, this.settings.timeoutMs), `prompt '${name}'`);
    const value = envelope.value;
    if (envelope.status === ResponseStatus.Error || !value || value.status === ResponseStatus.Error) {
      throw this.pluginError(envelope, 'PromptNotFound', `prompt '${name}'`, value?.description);
    }
    return promptResult(value);
  }

  listResources(scope?: AgentScope): ListResourcesResult {
    return { resources: firstBy(this.activeFor(scope).flatMap((r) => enabledResources(r)), (r) => r.uri).map(resourceDescriptor) };
  }

  listResourceTemplates(scope?: AgentScope): ListResourceTemplatesResult {
    const templates = firstBy(this.activeFor(scope).flatMap((r) => enabledTemplates(r)), (t) => t.uriTemplate);
    return { resourceTemplates: templates.map(resourceTemplateDescriptor) };
  }

  /** Throws JunctionError `ResourceNotFound`, `PluginUnavailable`, `ToolTimeout` or `InternalError`. */
  async readResource(uri: string, scope?: AgentScope): Promise<ReadResourceResult> {
    const owner = this.resourceOwner(uri, scope);
    if (!owner) throw new JunctionError('ResourceNotFound', `No connected plugin publishes the resource '${uri}'.`);
    const envelope = await this.ask(() => this.port.readResource(owner.connectionId, uri, this.settings.timeoutMs), `resource '${uri}'`);
    if (envelope.status === ResponseStatus.Error || !envelope.value) throw this.pluginError(envelope, 'ResourceNotFound', `resource '${uri}'`);
    return resourceResult(envelope.value);
  }

  /** What one connection publishes (enabled or not), in MCP shapes, for the console's plugin view. */
  pluginCatalogue(connectionId: string): { tools: ToolDescriptor[]; prompts: Prompt[]; resources: Resource[] } | undefined {
    const record = this.registry.get(connectionId);
    if (!record) return undefined;
    return {
      tools: record.catalogue.tools.map(toolDescriptor),
      prompts: record.catalogue.prompts.map(promptDescriptor),
      resources: record.catalogue.resources.map(resourceDescriptor),
    };
  }

  /** Changes the whole-call deadline for later tool, prompt and resource calls (the operator's runtime setting). */
  setCallTimeout(timeoutMs: number): void {
    this.settings.timeoutMs = timeoutMs;
  }

  /**
   * Completion for a prompt or resource-template argument by the plugin of the agent's project that
   * publishes it; a plugin that did not declare the `completion` feature offers no values. Throws
   * `CompletionRefNotFound`.
   */
  async complete(params: CompleteRequest['params'], scope?: AgentScope): Promise<CompleteResult['completion']> {
    const { ref } = params;
    const active = this.activeFor(scope);
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
    const envelope = await this.ask(() => this.port.complete(owner.connectionId, request, this.settings.timeoutMs), `completion of ${what}`);
    if (envelope.status === ResponseStatus.Error || !envelope.value) throw this.pluginError(envelope, 'CompletionRefNotFound', `completion of ${what}`);
    const { values, total, hasMore } = envelope.value;
    return { values, ...(total === undefined ? {} : { total }), ...(hasMore === undefined ? {} : { hasMore }) };
  }

  /**
   * Counts one more subscribed session for the resource in the agent's project (the topic); the owner
   * hears of the first. Throws `ResourceNotFound`.
   */
  async subscribe(uri: string, scope?: AgentScope): Promise<ResourceSubscription> {
    const resolution = this.registry.resolveQuietly(scope);
    const project = resolution.kind === 'resolved' ? resolution.project : undefined;
    const owner = project && resourceOwnerAmong(project.registry.active(), uri);
    if (!project || !owner) throw new JunctionError('ResourceNotFound', `No connected plugin publishes the resource '${uri}'.`);
    const topic = topicOf(project.key, uri);
    const count = (this.subscribers.get(topic) ?? 0) + 1;
    this.subscribers.set(topic, count);
    let held = true;
    const subscription: ResourceSubscription = {
      topic,
      release: () => {
        if (!held) return;
        held = false;
        this.release(topic, project, uri);
      },
    };
    if (count > 1 || !owner.handshake?.features.includes('subscriptions')) return subscription;
    this.toldOwner.set(topic, owner.connectionId);
    try {
      await this.ask(() => this.port.setSubscription(owner.connectionId, uri, true, this.settings.timeoutMs), `subscription to '${uri}'`);
    } catch (error) {
      subscription.release();
      throw error;
    }
    return subscription;
  }

  /** A plugin said one of its resources changed: the topic is its project's, so other projects' subscribers stay quiet. */
  resourceUpdated(connectionId: string, uri: string): void {
    const project = this.registry.projectOf(connectionId);
    if (project) this.events.emit('resourceUpdated', { uri, topic: topicOf(project.key, uri) });
  }

  /** What the MCP extension holds right now, for leak checks: calls, pending agent requests, subscribed URIs. */
  extensionCounts(): { calls: number; nested: number; subscribedResources: number } {
    return { ...this.port.activeCounts(), subscribedResources: this.subscribers.size };
  }

  onResourceUpdated(listener: (update: ResourceUpdate) => void): () => void {
    return this.events.on('resourceUpdated', listener);
  }

  onLog(listener: (entry: AgentLogEntry) => void): () => void {
    return this.events.on('agentLog', listener);
  }

  /** Connected and awaited plugins for the console. */
  pluginViews(): PluginView[] {
    return this.registry.views(this.settings.now());
  }

  diagnostics(): DuplicateToolDiagnostic[] {
    return this.registry.diagnostics();
  }

  /** Plugins whose prompts or resources list failed and currently contribute none. */
  degradedLists(): ListDegradedDiagnostic[] {
    return this.registry.degradedLists();
  }

  /** Stops listening to the registry and the hub and clears timers. */
  dispose(): void {
    for (const off of [...this.offRegistry, ...this.disposers]) off();
    clearTimeout(this.expiryTimer);
  }

  private unresolved(resolution: Exclude<ProjectResolution, { kind: 'resolved' }>): ToolOutcome {
    if (resolution.kind === 'empty') return errorOutcome({ code: 'ProjectNotConnected', message: resolution.message });
    return errorOutcome(
      { code: 'ProjectNotConnected', message: resolution.message, next: { kind: 'resolveTargetAgain', tools: ['list_engine_instances'] }, details: { pin: resolution.pin } },
    );
  }

  /** The plugins an agent's prompts and resources come from: its project's, as for tools. */
  private activeFor(scope: AgentScope | undefined): PluginRecord[] {
    if (scope === undefined || this.registry.mode === 'single') return this.registry.active();
    const resolution = this.registry.resolveQuietly(scope);
    return resolution.kind === 'resolved' ? resolution.project.registry.active() : [];
  }

  private resourceOwner(uri: string, scope: AgentScope | undefined): PluginRecord | undefined {
    return resourceOwnerAmong(this.activeFor(scope), uri);
  }

  /** Counts one session fewer on the topic; the project's owner hears when none is left. */
  private release(topic: string, project: Project, uri: string): void {
    const count = (this.subscribers.get(topic) ?? 0) - 1;
    if (count > 0) {
      this.subscribers.set(topic, count);
      return;
    }
    this.subscribers.delete(topic);
    this.toldOwner.delete(topic);
    const owner = resourceOwnerAmong(project.registry.active(), uri);
    if (owner?.handshake?.features.includes('subscriptions')) this.port.setSubscription(owner.connectionId, uri, false, this.settings.timeoutMs).catch(() => undefined);
  }

  /**
   * A plugin that connected, reconnected or changed its resources now owns some subscribed topics of its
   * project: it hears of each one it was not told about yet, as it would have from the first subscriber.
   * Agents' subscriptions outlive a plugin restart; without this the new connection never sends updates.
   */
  private resubscribe(connectionId: string): void {
    const project = this.registry.projectOf(connectionId);
    if (!project || this.subscribers.size === 0) return;
    const prefix = topicOf(project.key, '');
    for (const topic of this.subscribers.keys()) {
      if (!topic.startsWith(prefix) || this.toldOwner.get(topic) === connectionId) continue;
      const uri = topic.slice(prefix.length);
      const owner = resourceOwnerAmong(project.registry.active(), uri);
      if (owner?.connectionId !== connectionId || !owner.handshake?.features.includes('subscriptions')) continue;
      this.toldOwner.set(topic, connectionId);
      this.port.setSubscription(connectionId, uri, true, this.settings.timeoutMs).catch(() => {
        // Not told after all: the next update of this plugin tries again.
        if (this.toldOwner.get(topic) === connectionId) this.toldOwner.delete(topic);
      });
    }
  }

  private async ask<T>(run: () => Promise<T>, what: string): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof InvokeFailure)) throw error;
      if (error.reason === 'timeout') throw new JunctionError('ToolTimeout', `The plugin did not answer for ${what} within ${this.settings.timeoutMs} ms.`);
      if (error.reason === 'protocol') throw new JunctionError('InternalError', `The plugin answered malformed data for ${what}: ${error.message}`);
      throw new JunctionError('PluginUnavailable', `The plugin serving ${what} is not reachable: ${error.message}`);
    }
  }

  private pluginError(envelope: ResponseData<unknown>, notFound: ErrorCode, what: string, detail?: string): JunctionError {
    const message = envelope.message || detail || `The plugin could not provide ${what}.`;
    const byKind: Partial<Record<ResponseErrorKind, ErrorCode>> = {
      [ResponseErrorKind.NotFound]: notFound,
      [ResponseErrorKind.Unavailable]: 'PluginUnavailable',
      [ResponseErrorKind.Timeout]: 'ToolTimeout',
      [ResponseErrorKind.BadRequest]: 'InvalidArguments',
      [ResponseErrorKind.Conflict]: 'Conflict',
    };
    return new JunctionError(byKind[envelope.errorKind] ?? 'InternalError', message);
  }

  private scheduleExpiry(): void {
    clearTimeout(this.expiryTimer);
    const nextUntil = this.registry.expireAwaited(this.settings.now());
    if (nextUntil === undefined) return;
    this.expiryTimer = setTimeout(() => this.scheduleExpiry(), Math.max(1, nextUntil - this.settings.now()));
    this.expiryTimer.unref();
  }
}
