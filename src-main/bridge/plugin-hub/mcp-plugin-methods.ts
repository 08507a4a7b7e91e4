/**
 * McpPlugin's plugin → server hub methods (specs §2): the version handshake (replacing older
 * connections of the same slot), catalogue-change notifications, the completion of a long-running
 * call, and Junction's progress notification. Decisions live in the registry; this only wires them.
 */
import {
  NotifyToolProgressSchema,
  PluginToServer,
  RequestIdOnlySchema,
  RequestToolCompletedDataSchema,
  RequestVersionHandshakeSchema,
  ServerToPlugin,
} from '../../../plugins/sdk/wire/index.js';
import { prepareArgumentValidation } from '../calls/index.js';
import type { ProjectRegistry } from '../projects/index.js';
import type { HubConnection, HubServer } from '../signalr/index.js';
import { CATALOGUE_KINDS, type CatalogueKind, type CatalogueRefresh } from './catalogue-refresh.js';
import type { HubPluginPort } from './hub-plugin-port.js';
import type { HubWire } from './payloads.js';

export function attachMcpPluginMethods(hub: HubServer, projects: ProjectRegistry, port: HubPluginPort, refresh: CatalogueRefresh, wire: HubWire): Array<() => void> {
  const notifyUpdated = (kind: CatalogueKind, method: string) => (connection: HubConnection, raw: unknown) => {
    const request = wire.read(connection, method, RequestIdOnlySchema, raw ?? {});
    if (projects.get(connection.id)?.handshake) refresh.later(connection, kind);
    return wire.acknowledged(request.requestId, `Received ${kind} update notification`);
  };

  return [
    hub.on(PluginToServer.PerformVersionHandshake, (connection, raw) => {
      const request = wire.read(connection, PluginToServer.PerformVersionHandshake, RequestVersionHandshakeSchema, raw);
      const outcome = projects.handshake(connection.id, request);
      for (const id of outcome.replaced) {
        const old = port.connections.get(id);
        if (!old) continue;
        const reason = `Replaced by a newer ${projects.get(connection.id)?.role ?? 'plugin'} connection.`;
        old.send(ServerToPlugin.ForceDisconnect, [reason]);
        old.close(reason, false);
      }
      if (outcome.response.compatible) for (const kind of CATALOGUE_KINDS) refresh.later(connection, kind);
      if (outcome.response.compatible && projects.get(connection.id)?.guarded) prepareArgumentValidation();
      return outcome.response;
    }),
    hub.on(PluginToServer.NotifyAboutUpdatedTools, notifyUpdated('tools', PluginToServer.NotifyAboutUpdatedTools)),
    hub.on(PluginToServer.NotifyAboutUpdatedPrompts, notifyUpdated('prompts', PluginToServer.NotifyAboutUpdatedPrompts)),
    hub.on(PluginToServer.NotifyAboutUpdatedResources, notifyUpdated('resources', PluginToServer.NotifyAboutUpdatedResources)),
    hub.on(PluginToServer.NotifyToolRequestCompleted, (connection, raw) => {
      const data = wire.read(connection, PluginToServer.NotifyToolRequestCompleted, RequestToolCompletedDataSchema, raw);
      port.completeTool(connection.id, [data.result.requestId, data.requestId], data.result);
      return wire.acknowledged(data.requestId || data.result.requestId);
    }),
    hub.on(PluginToServer.NotifyToolProgress, (connection, raw) => {
      const data = wire.read(connection, PluginToServer.NotifyToolProgress, NotifyToolProgressSchema, raw);
      port.progress.get(data.requestId)?.({
        progress: data.progress,
        ...(data.total === undefined ? {} : { total: data.total }),
        ...(data.message === undefined ? {} : { message: data.message }),
      });
      return wire.acknowledged(data.requestId);
    }),
  ];
}
