/**
 * The plugin registry (pure: no I/O, no timers; the caller passes `now`). It owns the connections,
 * their roles and catalogues, replacement at the handshake, the awaited state of departed plugins
 * and the duplicate-name diagnostics, and announces every change as an event.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  HubQuery,
  type RequestVersionHandshake,
  type ResponseListResource,
  type ResponseListTool,
  type ResponsePrompt,
  type ResponseResourceTemplate,
  type VersionHandshakeResponse,
} from '../../../plugins/sdk/wire/index.js';
import type { PluginView } from '../../contracts/index.js';
import { TypedEmitter } from '../../shared/index.js';
import { evaluateHandshake } from './handshake.js';
import { EMPTY_CATALOGUE, enabledTools, preferenceOrder, type AwaitedPlugin, type PluginCatalogue, type PluginRecord } from './records.js';
import { declaredRole, isGuardedVersion, resolveRole } from './roles.js';

export interface PluginConnectionInfo {
  connectionId: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  connectedAt: number;
}

/** A published tool name that two different live plugins both publish; `winner` serves it. */
export interface DuplicateToolDiagnostic {
  code: 'DuplicateTool';
  tool: string;
  winner: string;
  connectionIds: string[];
  message: string;
}

/** A plugin's prompts or resources list failed: agents see it empty until a later list succeeds. */
export interface ListDegradedDiagnostic {
  code: 'ListDegraded';
  connectionId: string;
  plugin: string;
  list: 'prompts' | 'resources';
  message: string;
}

export interface RegistryEvents {
  pluginConnected: PluginView;
  pluginUpdated: PluginView;
  pluginDisconnected: { connectionId: string };
  toolsChanged: undefined;
  promptsChanged: undefined;
  resourcesChanged: undefined;
  /** A live plugin's tool catalogue arrived or changed: calls waiting for a plugin look again. */
  ready: { connectionId: string };
  diagnostic: DuplicateToolDiagnostic;
  listDegraded: ListDegradedDiagnostic;
}

export interface HandshakeOutcome {
  response: VersionHandshakeResponse;
  /** Connections this handshake replaced; the caller closes them. */
  replaced: string[];
}

export class PluginRegistry {
  readonly events = new TypedEmitter<RegistryEvents>();
  private readonly records = new Map<string, PluginRecord>();
  private readonly awaitedByRole = new Map<string, AwaitedPlugin>();
  private readonly seen = new Map<string, number>();
  private duplicates = new Map<string, DuplicateToolDiagnostic>();
  private readonly degraded = new Map<string, ListDegradedDiagnostic>();
  /** The bridge's latest finding of each kind about a live connection (a message over the hub's limit), for its warnings. */
  private readonly findings = new Map<string, string>();
  private sequence = 0;
  /** `active()` as last built: every routed call reads it, and it changes only when a plugin comes, handshakes or goes. */
  private activeOrder: readonly PluginRecord[] | undefined;

  constructor(private readonly serverVersion: string) {}

  connect(info: PluginConnectionInfo): void {
    this.activeOrder = undefined;
    const project = info.query.get(HubQuery.projectName)?.trim() || undefined;
    const name = project || info.query.get(HubQuery.instanceId)?.trim() || '';
    this.records.set(info.connectionId, {
      connectionId: info.connectionId,
      name,
      ...(project ? { project } : {}),
      declaredRole: declaredRole(info.query, info.headers),
      connectedAt: info.connectedAt,
      role: 'editor',
      handshake: undefined,
      guarded: false,
      sequence: 0,
      reconnects: 0,
      catalogue: EMPTY_CATALOGUE,
      toolsKnown: false,
    });
  }

  /** Accepts or refuses the plugin; a compatible plugin becomes active and may replace others. */
  handshake(connectionId: string, request: RequestVersionHandshake): HandshakeOutcome {
    const response = evaluateHandshake(request, this.serverVersion);
    const record = this.records.get(connectionId);
    if (!record || !response.compatible) return { response, replaced: [] };

    const firstHandshake = record.handshake === undefined;
    record.handshake = {
      apiVersion: request.apiVersion,
      pluginVersion: request.pluginVersion,
      environment: request.environment,
      ...(request.mcpPluginVersion ? { mcpPluginVersion: request.mcpPluginVersion } : {}),
      features: request.extensions?.features ?? [],
    };
    record.guarded = isGuardedVersion(request.mcpPluginVersion);
    record.role = resolveRole(record.declaredRole, request.environment, record.guarded);
    record.sequence = ++this.sequence;
    this.activeOrder = undefined;
    if (record.name === '') record.name = request.environment || connectionId;

    const replaced = this.active().filter((other) => other !== record && this.replaces(record, other));
    for (const old of replaced) this.remove(old.connectionId);
    this.endAwait(record);

    if (firstHandshake) {
      const key = `${record.role}:${record.name}`;
      const previous = this.seen.get(key);
      record.reconnects = previous === undefined ? 0 : previous + 1;
      this.seen.set(key, record.reconnects);
      this.events.emit('pluginConnected', this.view(record));
    } else {
      this.events.emit('pluginUpdated', this.view(record));
    }
    if (replaced.some((r) => r.catalogue !== EMPTY_CATALOGUE)) this.emitCatalogueChanges(replaced.map((r) => r.catalogue));
    return { response, replaced: replaced.map((r) => r.connectionId) };
  }

  setTools(connectionId: string, tools: readonly ResponseListTool[]): void {
    const record = this.records.get(connectionId);
    if (!record) return;
    const firstList = !record.toolsKnown;
    record.toolsKnown = true;
    const changed = this.updateCatalogue(connectionId, { tools });
    if (record.handshake && (firstList || changed)) this.events.emit('ready', { connectionId });
  }

  /** The tool list could not be fetched: stop waiting for it (the plugin serves nothing until it re-announces). */
  toolsUnavailable(connectionId: string): void {
    const record = this.records.get(connectionId);
    if (!record || record.toolsKnown) return;
    record.toolsKnown = true;
    this.events.emit('ready', { connectionId });
  }

  setPrompts(connectionId: string, prompts: readonly ResponsePrompt[]): void {
    const recovered = this.degraded.delete(`${connectionId}:prompts`);
    if (!this.updateCatalogue(connectionId, { prompts }) && recovered) this.announce(connectionId);
  }

  setResources(connectionId: string, resources: readonly ResponseListResource[], templates: readonly ResponseResourceTemplate[]): void {
    const recovered = this.degraded.delete(`${connectionId}:resources`);
    if (!this.updateCatalogue(connectionId, { resources, templates }) && recovered) this.announce(connectionId);
  }

  /** The plugin's prompts or resources could not be listed: it contributes none, and a diagnostic says why. */
  listFailed(connectionId: string, list: 'prompts' | 'resources', reason: string): void {
    const record = this.records.get(connectionId);
    if (!record) return;
    const diagnostic: ListDegradedDiagnostic = {
      code: 'ListDegraded',
      connectionId,
      plugin: record.name,
      list,
      message: `The ${list} of '${record.name}' could not be listed, so it contributes none until its next list succeeds: ${reason}`,
    };
    this.degraded.set(`${connectionId}:${list}`, diagnostic);
    if (!this.updateCatalogue(connectionId, list === 'prompts' ? { prompts: [] } : { resources: [], templates: [] })) this.announce(connectionId);
    this.events.emit('listDegraded', diagnostic);
  }

  /** Records the bridge's latest `kind` of finding about a live connection; its view's warnings show it until it goes. */
  noteFinding(connectionId: string, kind: string, message: string): void {
    if (!this.records.has(connectionId)) return;
    this.findings.set(`${connectionId}:${kind}`, message);
    this.announce(connectionId);
  }

  private forgetFindings(connectionId: string): void {
    for (const list of ['prompts', 'resources']) this.degraded.delete(`${connectionId}:${list}`);
    for (const key of this.findings.keys()) if (key.startsWith(`${connectionId}:`)) this.findings.delete(key);
  }

  /** Tells the console a live plugin's view changed when its catalogue did not. */
  private announce(connectionId: string): void {
    const record = this.records.get(connectionId);
    if (record?.handshake) this.events.emit('pluginUpdated', this.view(record));
  }

  /** The connection closed. An active plugin that was not replaced is awaited back for `waitMs`. */
  disconnect(connectionId: string, now: number, waitMs: number): void {
    const record = this.records.get(connectionId);
    if (!record) return;
    this.records.delete(connectionId);
    this.activeOrder = undefined;
    this.forgetFindings(connectionId);
    if (!record.handshake) return;
    if (waitMs > 0) {
      const previous = this.awaitedByRole.get(record.role);
      if (previous) this.events.emit('pluginDisconnected', { connectionId: previous.connectionId });
      this.awaitedByRole.set(record.role, {
        connectionId,
        role: record.role,
        name: record.name,
        until: now + waitMs,
        toolNames: new Set(enabledTools(record).map((t) => t.name)),
        record,
      });
      this.events.emit('pluginUpdated', this.view(record, now + waitMs));
    } else {
      this.events.emit('pluginDisconnected', { connectionId });
    }
    this.emitCatalogueChanges([record.catalogue]);
  }

  /** Ends the awaited state of plugins whose wait is over; returns the earliest remaining deadline. */
  expireAwaited(now: number): number | undefined {
    for (const [role, entry] of this.awaitedByRole) {
      if (entry.until <= now) {
        this.awaitedByRole.delete(role);
        this.events.emit('pluginDisconnected', { connectionId: entry.connectionId });
        this.emitCatalogueChanges([entry.record.catalogue]);
      }
    }
    const untils = [...this.awaitedByRole.values()].map((a) => a.until);
    return untils.length ? Math.min(...untils) : undefined;
  }

  get(connectionId: string): PluginRecord | undefined {
    return this.records.get(connectionId);
  }

  /** Handshaken, compatible connections, in preference order (editor first, newest first); shared, so read-only. */
  active(): readonly PluginRecord[] {
    this.activeOrder ??= [...this.records.values()].filter((r) => r.handshake !== undefined).sort(preferenceOrder);
    return this.activeOrder;
  }

  awaited(now: number): AwaitedPlugin[] {
    return [...this.awaitedByRole.values()].filter((a) => a.until > now);
  }

  /** Whether any plugin is connected or awaited back (what `views` would list), without building the views. */
  hasPlugins(now: number): boolean {
    for (const record of this.records.values()) if (record.handshake !== undefined) return true;
    for (const awaited of this.awaitedByRole.values()) if (awaited.until > now) return true;
    return false;
  }

  views(now: number): PluginView[] {
    return [...this.active().map((r) => this.view(r)), ...this.awaited(now).map((a) => this.view(a.record, a.until))];
  }

  diagnostics(): DuplicateToolDiagnostic[] {
    return [...this.duplicates.values()];
  }

  degradedLists(): ListDegradedDiagnostic[] {
    return [...this.degraded.values()];
  }

  /**
   * Every tool name once, from the plugin the routing rule prefers. A plugin awaited back keeps its
   * tools listed until its wait ends, so a call made during a reconnect is held for it by the call
   * guard instead of being refused as unknown (and agents see no list churn on every reload).
   */
  publishedTools(): Array<{ tool: ResponseListTool; record: PluginRecord }> {
    const out = new Map<string, { tool: ResponseListTool; record: PluginRecord }>();
    const publishers = [...this.active(), ...[...this.awaitedByRole.values()].map((a) => a.record)];
    for (const record of publishers) {
      for (const tool of enabledTools(record)) if (!out.has(tool.name)) out.set(tool.name, { tool, record });
    }
    return [...out.values()];
  }

  private replaces(newer: PluginRecord, older: PluginRecord): boolean {
    // Roles apply only between two 8.14+ plugins; otherwise the newest connection wins outright.
    return newer.guarded && older.guarded ? newer.role === older.role : true;
  }

  private remove(connectionId: string): void {
    this.records.delete(connectionId);
    this.activeOrder = undefined;
    this.forgetFindings(connectionId);
    this.events.emit('pluginDisconnected', { connectionId });
  }

  private endAwait(record: PluginRecord): void {
    const awaited = this.awaitedByRole.get(record.role);
    if (!awaited) return;
    this.awaitedByRole.delete(record.role);
    this.events.emit('pluginDisconnected', { connectionId: awaited.connectionId });
  }

  /** Returns whether anything changed. */
  private updateCatalogue(connectionId: string, patch: Partial<PluginCatalogue>): boolean {
    const record = this.records.get(connectionId);
    if (!record) return false;
    const before = record.catalogue;
    const after = { ...before, ...patch };
    // Plugins re-announce after every handshake; an identical list is not a change.
    if (JSON.stringify(after) === JSON.stringify(before)) return false;
    record.catalogue = after;
    if (!record.handshake) return true;
    this.emitCatalogueChanges([before, record.catalogue]);
    this.events.emit('pluginUpdated', this.view(record));
    return true;
  }

  private emitCatalogueChanges(catalogues: readonly PluginCatalogue[]): void {
    const touched = (pick: (c: PluginCatalogue) => readonly unknown[]) => catalogues.some((c) => pick(c).length > 0);
    if (touched((c) => c.tools)) {
      this.refreshDuplicates();
      this.events.emit('toolsChanged', undefined);
    }
    if (touched((c) => c.prompts)) this.events.emit('promptsChanged', undefined);
    if (touched((c) => [...c.resources, ...c.templates])) this.events.emit('resourcesChanged', undefined);
  }

  private refreshDuplicates(): void {
    const byTool = new Map<string, PluginRecord[]>();
    for (const record of this.active()) {
      for (const tool of enabledTools(record)) byTool.set(tool.name, [...(byTool.get(tool.name) ?? []), record]);
    }
    const next = new Map<string, DuplicateToolDiagnostic>();
    for (const [tool, publishers] of byTool) {
      // The same plugin built for editor and runtime shares its "both" tools by design; only different plugins clash.
      if (new Set(publishers.map((p) => p.name)).size < 2) continue;
      const [winner] = publishers;
      if (!winner) continue;
      const connectionIds = publishers.map((p) => p.connectionId);
      const key = `${tool}\u0000${connectionIds.join('\u0000')}`;
      const diagnostic: DuplicateToolDiagnostic = {
        code: 'DuplicateTool',
        tool,
        winner: winner.connectionId,
        connectionIds,
        message: `Tool '${tool}' is published by ${publishers.map((p) => `'${p.name}' (${p.role})`).join(' and ')}; calls go to '${winner.name}' (${winner.role}).`,
      };
      next.set(key, diagnostic);
      if (!this.duplicates.has(key)) this.events.emit('diagnostic', diagnostic);
    }
    this.duplicates = next;
  }

  private view(record: PluginRecord, awaitedUntil?: number): PluginView {
    const h = record.handshake;
    return {
      connectionId: record.connectionId,
      role: record.role,
      name: record.name,
      ...(h?.pluginVersion ? { pluginVersion: h.pluginVersion } : {}),
      ...(h?.mcpPluginVersion ? { mcpPluginVersion: h.mcpPluginVersion } : {}),
      ...(h?.environment ? { environment: h.environment } : {}),
      connectedAt: record.connectedAt,
      reconnects: record.reconnects,
      toolCount: enabledTools(record).length,
      promptCount: record.catalogue.prompts.length,
      resourceCount: record.catalogue.resources.length + record.catalogue.templates.length,
      state: awaitedUntil === undefined ? 'connected' : 'awaited',
      ...(awaitedUntil === undefined ? {} : { awaitedUntil }),
      ...this.warningsOf(record.connectionId),
    };
  }

  private warningsOf(connectionId: string): { warnings?: string[] } {
    const warnings = [...this.degraded.values()].filter((d) => d.connectionId === connectionId).map((d) => d.message);
    for (const [key, message] of this.findings) if (key.startsWith(`${connectionId}:`)) warnings.push(message);
    return warnings.length ? { warnings } : {};
  }
}
