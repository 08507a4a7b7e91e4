/**
 * The bridge as a ToolSource: the union of the live plugins' catalogues, calls through routing and
 * the call guard, plus prompts and resources in MCP SDK result shapes and the console's plugin views.
 */
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
  type ResponseData,
  type ResponseGetPrompt,
  type ResponseResourceContent,
} from '../../../plugins/sdk/src/protocol.js';
import type { PluginView } from '../../control/api.js';
import { JunctionError, type ErrorCode } from '../../shared/errors.js';
import type { CallContext, ToolDescriptor, ToolOutcome, ToolSource } from '../../shared/tool-source.js';
import { TypedEmitter } from '../../shared/typed-emitter.js';
import { guardedCall, InvokeFailure, type GuardSettings, type ToolInvoker } from './call-guard.js';
import {
  promptDescriptor,
  promptResult,
  resourceDescriptor,
  resourceResult,
  resourceTemplateDescriptor,
  toolDescriptor,
} from './catalogue.js';
import type { DuplicateToolDiagnostic, PluginRegistry } from './registry.js';
import type { PluginRecord } from './records.js';

/** How the bridge reaches a plugin for prompts and resources (tools go through ToolInvoker). */
export interface PluginPort extends ToolInvoker {
  getPrompt(connectionId: string, name: string, args: Record<string, string>, timeoutMs: number): Promise<ResponseData<ResponseGetPrompt>>;
  readResource(connectionId: string, uri: string, timeoutMs: number): Promise<ResponseData<ResponseResourceContent[]>>;
}

export interface PluginLogEntry {
  connectionId: string;
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

  /** Every prompt name once, from the preferred plugin (editor first, newest first). */
  listPrompts(): ListPromptsResult {
    return { prompts: firstBy(this.registry.active().flatMap((r) => r.catalogue.prompts), (p) => p.name).map(promptDescriptor) };
  }

  /** Throws JunctionError `PromptNotFound`, `PluginUnavailable`, `ToolTimeout` or `InternalError`. */
  async getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    const owner = this.registry.active().find((r) => r.catalogue.prompts.some((p) => p.name === name));
    if (!owner) throw new JunctionError('PromptNotFound', `No connected plugin publishes a prompt named '${name}'.`);
    const envelope = await this.ask(() => this.port.getPrompt(owner.connectionId, name, args, this.settings.timeoutMs), `prompt '${name}'`);
    const value = envelope.value;
    if (envelope.status === ResponseStatus.Error || !value || value.status === ResponseStatus.Error) {
      throw this.pluginError(envelope, 'PromptNotFound', `prompt '${name}'`, value?.description);
    }
    return promptResult(value);
  }

  listResources(): ListResourcesResult {
    return { resources: firstBy(this.registry.active().flatMap((r) => r.catalogue.resources), (r) => r.uri).map(resourceDescriptor) };
  }

  listResourceTemplates(): ListResourceTemplatesResult {
    const templates = firstBy(this.registry.active().flatMap((r) => r.catalogue.templates), (t) => t.uriTemplate);
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

  /** Stops listening to the registry and the hub and clears timers. */
  dispose(): void {
    for (const off of [...this.unsubscribe, ...this.disposers]) off();
    clearTimeout(this.expiryTimer);
  }

  private resourceOwner(uri: string): PluginRecord | undefined {
    const active = this.registry.active();
    return (
      active.find((r) => r.catalogue.resources.some((res) => res.uri === uri)) ??
      active.find((r) => r.catalogue.templates.some((t) => matchesUriTemplate(t.uriTemplate, uri)))
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
