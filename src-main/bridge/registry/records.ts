/** The state the bridge keeps per plugin connection and per awaited (recently departed) plugin. */
import type {
  ExtensionFeature,
  ResponseListResource,
  ResponseListTool,
  ResponsePrompt,
  ResponseResourceTemplate,
} from '../../../plugins/sdk/wire/index.js';
import type { PluginRole } from '../../contracts/index.js';

export interface PluginCatalogue {
  tools: readonly ResponseListTool[];
  prompts: readonly ResponsePrompt[];
  resources: readonly ResponseListResource[];
  templates: readonly ResponseResourceTemplate[];
}

export interface PluginHandshake {
  apiVersion: string;
  pluginVersion: string;
  environment: string;
  mcpPluginVersion?: string;
  /** MCP extension features the plugin declared; empty for every McpPlugin client. */
  features: readonly ExtensionFeature[];
}

export interface PluginRecord {
  readonly connectionId: string;
  /** From the `project_name` (or `instance_id`) query, else the handshake environment. */
  name: string;
  /** The `project_name` query, when the plugin sent one (approval rules match on it). */
  readonly project?: string;
  readonly declaredRole: PluginRole | undefined;
  readonly connectedAt: number;
  role: PluginRole;
  /** Set by a compatible handshake; until then the connection is pending and serves nothing. */
  handshake: PluginHandshake | undefined;
  /** 8.14+ plugin: argument validation, call guard, role-aware replacement. */
  guarded: boolean;
  /** Activation order; a larger value is a newer plugin. */
  sequence: number;
  reconnects: number;
  catalogue: PluginCatalogue;
  /** False until the first tool list arrived (or could not be fetched): routing waits for it. */
  toolsKnown: boolean;
}

/** A plugin that left without being replaced and may come back within the reconnect wait. */
export interface AwaitedPlugin {
  readonly connectionId: string;
  readonly role: PluginRole;
  readonly name: string;
  readonly until: number;
  readonly toolNames: ReadonlySet<string>;
  readonly record: PluginRecord;
}

export const EMPTY_CATALOGUE: PluginCatalogue = { tools: [], prompts: [], resources: [], templates: [] };

export function enabledTools(record: PluginRecord): readonly ResponseListTool[] {
  return record.catalogue.tools.filter((t) => t.enabled);
}

export function enabledPrompts(record: PluginRecord): readonly ResponsePrompt[] {
  return record.catalogue.prompts.filter((p) => p.enabled);
}

export function enabledResources(record: PluginRecord): readonly ResponseListResource[] {
  return record.catalogue.resources.filter((r) => r.enabled);
}

export function enabledTemplates(record: PluginRecord): readonly ResponseResourceTemplate[] {
  return record.catalogue.templates.filter((t) => t.enabled);
}

export function publishes(record: PluginRecord, tool: string): boolean {
  return record.catalogue.tools.some((t) => t.enabled && t.name === tool);
}

/** Editor before runtime, then the newest: the one rule for routing and for duplicate names. */
export function preferenceOrder(a: PluginRecord, b: PluginRecord): number {
  if (a.role !== b.role) return a.role === 'editor' ? -1 : 1;
  return b.sequence - a.sequence;
}
