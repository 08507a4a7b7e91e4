/**
 * The bridge as a ToolSource: the union of the live plugins' catalogues, calls through routing and
 * the call guard, plus prompts and resources in MCP SDK result shapes and the console's plugin views.
 */
import { randomUUID } from 'node:crypto';
import type {
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
  type RequestCallTool,
  type ResponseData,
  type ResponseGetPrompt,
  type ResponseListTool,
  type ResponseResourceContent,
} from '../../../plugins/sdk/src/protocol.js';
import type { PluginView } from '../../control/api.js';
import { JunctionError, type ErrorCode } from '../../shared/errors.js';
import type { CallContext, ToolDescriptor, ToolOutcome, ToolSource } from '../../shared/tool-source.js';
import { TypedEmitter } from '../../shared/typed-emitter.js';
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
import type { DuplicateToolDiagnostic, ListDegradedDiagnostic, PluginRegistry } from './registry.js';
import { enabledPrompts, enabledResources, enabledTemplates, type PluginRecord } from './records.js';

/** How the bridge reaches a plugin for prompts, resources and system tools (tools go through ToolInvoker). */
export interface PluginPort extends ToolInvoker {
  getPrompt(connectionId: string, name: string, args: Record<string, string>, timeoutMs: number): Promise<ResponseData<ResponseGetPrompt>>;
  readResource(connectionId: string, uri: string, timeoutMs: number): Promise<ResponseData<ResponseResourceContent[]>>;
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
  level: 'debug' | 'info' | 'warning' | 'error';
  message: string;
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
  private readonly unsubscribe: Array<() => void>;
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly registry: PluginRegistry,
    private readonly port: PluginPort,
    private readonly settings: GuardSettings,
    private readonly disposers: ReadonlyArray<() => void> = [],
  ) {
    const e = registry.events;
    this.unsubscribe = [
      e.on('pluginConnected', (view) => this.events.emit('pluginConnected', view)),
      e.on('pluginUpdated', (view) => this.events.emit('pluginUpdated', view)),
      e.on('pluginDisconnected', (gone) => this.events.emit('pluginDisconnected', gone)),
      e.on('promptsChanged', () => this.events.emit('promptsChanged', undefined)),
      e.on('resourcesChanged', () => this.events.emit('resourcesChanged', undefined)),
      e.on('diagnostic', (d) => this.events.emit('diagnostic', d)),
      e.on('listDegraded', (d) => this.events.emit('listDegraded', d)),
      registry.events.on('pluginUpdated', (view) => {
        if (view.state === 'awaited') this.scheduleExpiry();
      }),
    ];
  }

  listTools(): readonly ToolDescriptor[] {
    return this.registry.publishedTools().map(({ tool }) => toolDescriptor(tool));
  }

  callTool(name: string, args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutcome> {
    return guardedCall(this.registry, this.port, this.settings, name, args, ctx);
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
   * The plugin that runs system tools when the request names no project: the preferred live plugin
   * (editor first, newest first), as McpPlugin.Server resolves its one connection.
   */
  systemToolTarget(): string | undefined {
    return this.registry.active()[0]?.connectionId;
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
    if (!this.registry.get(connectionId)?.handshake) return bridgeFailure(name, 'unavailable', 'PluginUnavailable', 'No plugin is connected to run system tools.');
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
  listPrompts(): ListPromptsResult {
    return { prompts: firstBy(this.registry.active().flatMap((r) => enabledPrompts(r)), (p) => p.name).map(promptDescriptor) };
  }

  /** Throws JunctionError `PromptNotFound`, `PluginUnavailable`, `ToolTimeout` or `InternalError`. */
  async getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    const owner = this.registry.active().find((r) => enabledPrompts(r).some((p) => p.name === name));
    if (!owner) throw new JunctionError('PromptNotFound', `No connected plugin publishes a prompt named '${name}'.`);
    const envelope = await this.ask(() => this.port.getPrompt(owner.connectionId, name, args, this.settings.timeoutMs), `prompt '${name}'`);
    const value = envelope.value;
    if (envelope.status === ResponseStatus.Error || !value || value.status === ResponseStatus.Error) {
      throw this.pluginError(envelope, 'PromptNotFound', `prompt '${name}'`, value?.description);
    }
    return promptResult(value);
  }

  listResources(): ListResourcesResult {
    return { resources: firstBy(this.registry.active().flatMap((r) => enabledResources(r)), (r) => r.uri).map(resourceDescriptor) };
  }

  listResourceTemplates(): ListResourceTemplatesResult {
    const templates = firstBy(this.registry.active().flatMap((r) => enabledTemplates(r)), (t) => t.uriTemplate);
    return { resourceTemplates: templates.map(resourceTemplateDescriptor) };
  }

  /** Throws JunctionError `ResourceNotFound`, `PluginUnavailable`, `ToolTimeout` or `InternalError`. */
  async readResource(uri: string): Promise<ReadResourceResult> {
    const owner = this.resourceOwner(uri);
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
    for (const off of [...this.unsubscribe, ...this.disposers]) off();
    clearTimeout(this.expiryTimer);
  }

  private resourceOwner(uri: string): PluginRecord | undefined {
    const active = this.registry.active();
    return (
      active.find((r) => enabledResources(r).some((res) => res.uri === uri)) ??
      active.find((r) => enabledTemplates(r).some((t) => matchesUriTemplate(t.uriTemplate, uri)))
    );
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
