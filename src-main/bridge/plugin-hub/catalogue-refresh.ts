/**
 * Fetching a plugin's tools, prompts or resources into the registry after its handshake and whenever
 * it says they changed. A later refresh supersedes an earlier one still in flight, so a slow stale
 * list never wins. A failed tools list stops routing from waiting for it; a failed prompts or
 * resources list degrades to empty for agents, as McpPlugin.Server does, and the operator sees why.
 */
import {
  ResponseListPromptsDataSchema,
  ResponseListResourcesDataSchema,
  ResponseListToolsDataSchema,
  ResponseResourceTemplatesDataSchema,
  ServerToPlugin,
} from '../../../plugins/sdk/wire/index.js';
import { errorMessage } from '../../shared/index.js';
import type { ProjectRegistry } from '../projects/index.js';
import type { HubConnection } from '../signalr/index.js';
import type { HubPluginPort } from './hub-plugin-port.js';

export type CatalogueKind = 'tools' | 'prompts' | 'resources';
export const CATALOGUE_KINDS: readonly CatalogueKind[] = ['tools', 'prompts', 'resources'];

export class CatalogueRefresh {
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly projects: ProjectRegistry,
    private readonly port: HubPluginPort,
    private readonly timeoutMs: () => number,
    private readonly warn: (connectionId: string, message: string) => void,
  ) {}

  /** Refreshes on the next turn, after the hub answered the method that asked for it. */
  later(connection: HubConnection, kind: CatalogueKind): void {
    setImmediate(() => void this.refresh(connection, kind));
  }

  forget(connectionId: string): void {
    for (const kind of CATALOGUE_KINDS) this.generations.delete(`${connectionId}:${kind}`);
  }

  private async refresh(connection: HubConnection, kind: CatalogueKind): Promise<void> {
    const { projects, port } = this;
    const key = `${connection.id}:${kind}`;
    const generation = (this.generations.get(key) ?? 0) + 1;
    this.generations.set(key, generation);
    const current = () => this.generations.get(key) === generation && !connection.closed;
    const timeout = this.timeoutMs();
    try {
      if (kind === 'tools') {
        const data = await port.list(connection, ServerToPlugin.RunListTool, ResponseListToolsDataSchema, timeout);
        if (current()) projects.setTools(connection.id, data.value ?? []);
      } else if (kind === 'prompts') {
        const data = await port.list(connection, ServerToPlugin.RunListPrompts, ResponseListPromptsDataSchema, timeout);
        if (current()) projects.setPrompts(connection.id, data.value ?? []);
      } else {
        const [resources, templates] = await Promise.all([
          port.list(connection, ServerToPlugin.RunListResources, ResponseListResourcesDataSchema, timeout),
          port.list(connection, ServerToPlugin.RunResourceTemplates, ResponseResourceTemplatesDataSchema, timeout),
        ]);
        if (current()) projects.setResources(connection.id, resources.value ?? [], templates.value ?? []);
      }
    } catch (error) {
      if (!current()) return;
      const reason = errorMessage(error);
      if (kind === 'tools') {
        projects.toolsUnavailable(connection.id);
        this.warn(connection.id, `Could not fetch the plugin's tools: ${reason}`);
      } else {
        projects.listFailed(connection.id, kind, reason);
      }
    }
  }
}
