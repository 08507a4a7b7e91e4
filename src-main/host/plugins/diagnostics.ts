/** What the host reports about each plugin it tried to load: for server-status and the console. */
export type PluginErrorCategory =
  | 'module'
  | 'definition'
  | 'id'
  | 'apiVersion'
  | 'version'
  | 'toolName'
  | 'duplicateTool'
  | 'description'
  | 'schema'
  | 'responseSchema'
  | 'unboundedCollection'
  | 'reservedProperty'
  | 'handler';

export type PluginWarningCategory = 'schemaSize' | 'handlerState';

export interface PluginIssue<C extends string = string> {
  category: C;
  message: string;
  /** The tool the issue belongs to, when it belongs to one. */
  tool?: string;
}

export interface PluginDiagnostic {
  pluginId: string;
  version?: string;
  /** The module the definition came from. */
  source: string;
  /** False when any error exists: a plugin is published whole or not at all. */
  enabled: boolean;
  errors: PluginIssue<PluginErrorCategory>[];
  warnings: PluginIssue<PluginWarningCategory>[];
  /** Published tool names, empty when disabled. */
  tools: string[];
}
