/**
 * The bridge as a part of a running Junction: the SignalR plugin hub, the plugin registry and its
 * tools, agent presence for plugins, project selection; the operator's switches (bridge on and off,
 * project routing) and the routes they gate; the console's views and commands over them, and its
 * events on the console's stream.
 */
import type { IncomingMessage } from 'node:http';
import { API_VERSION } from '../../plugins/sdk/wire/index.js';
import type { AgentView, BridgeView, ControlCommandHandlers, ControlEvent, PluginView, ProjectRouting, ToolSource, ToolVisibility } from '../contracts/index.js';
import { toolEntryOf, type PluginCatalogueView } from '../control/index.js';
import { sendError, requestPath, type Logger, type RouteHandler } from '../shared/index.js';
import { pinGate } from './pin-gate.js';
import { attachPluginHub, type PluginBridge } from './plugin-hub/index.js';
import { AgentPresence, attachPresence } from './presence/index.js';
import type { ProjectRoutingControl } from './projects/index.js';
import { createHubServer, type AuthorizeResult } from './signalr/index.js';
import type { ConnectCommand } from './client-setup.js';
import { agentViews, bridgeView } from './views.js';

export interface BridgeMountContext {
  version: string;
  hub: { maxFrameBytes: number; keepAliveIntervalMs: number; clientTimeoutMs: number; authorize(req: IncomingMessage): Promise<AuthorizeResult> };
  pluginTimeoutMs: number;
  pluginReconnectWaitSeconds: number;
  projectRouting: ProjectRouting;
  /** How long a direct API caller counts as connected after its last call. */
  apiIdleMs: number;
  /** How agents reach this Junction's MCP server, as plugins are told. */
  serverTransport: 'stdio' | 'streamableHttp';
  /** Where agents reach Junction, for the Bridge view's URLs and snippets (the port is known once it listens). */
  endpoint(): { host: string; port: number; token: string | undefined; cli: ConnectCommand };
  /** Logs a refusal of bad input once per distinct input. */
  refused(key: string, message: string): void;
  logger: Logger;
  /** The console's event stream. */
  control: { publish(event: ControlEvent): unknown };
  /** Which plugins' prompts and resources each agent sees (the policy's visibility rules). */
  visibility?: ToolVisibility;
}

export interface MountedBridge {
  /** The bridged plugins' tools, prompts, resources and system tools. */
  source: PluginBridge;
  projects: ProjectRoutingControl;
  presence: AgentPresence;
  /** Project selection first, so no plugin can shadow it, then the plugins' tools. */
  toolSources: [ToolSource, ToolSource];
  running(): boolean;
  /** Serves `route` while the bridge runs; while it is stopped, its paths answer 503 `PluginUnavailable`. */
  gate(route: RouteHandler): RouteHandler;
  /** The hub and the pin gate, both gated. */
  routes: RouteHandler[];
  /** Tells the console where the bridge now listens. */
  announce(): void;
  views: { plugins(): PluginView[]; bridge(): BridgeView; agents(): AgentView[]; pluginCatalogue(connectionId: string): PluginCatalogueView | undefined };
  commands: ControlCommandHandlers<'startBridge' | 'stopBridge' | 'setProjectRouting'>;
  status: { bridge(): unknown };
  dispose(): Promise<void>;
}

/** Paths that belong to the bridge's agents and plugins, refused while the operator has it stopped. */
const BRIDGE_PATHS = /^\/(mcp|api|hub|p)(\/|$)/i;

export function mountBridge(context: BridgeMountContext): MountedBridge {
  const { control, logger } = context;
  const hub = createHubServer({ ...context.hub, authorize: (req) => context.hub.authorize(req) });
  const source = attachPluginHub(hub, {
    pluginTimeoutMs: context.pluginTimeoutMs,
    pluginReconnectWaitSeconds: context.pluginReconnectWaitSeconds,
    serverVersion: context.version,
    projectRouting: context.projectRouting,
    ...(context.visibility ? { visibility: context.visibility } : {}),
  });
  const projects = source.projects;
  const presence = new AgentPresence({ apiIdleMs: context.apiIdleMs });
  const detachPresence = attachPresence(hub, presence, { serverVersion: context.version, serverApiVersion: API_VERSION, serverTransport: context.serverTransport });
  let running = true;

  const view = (): BridgeView => {
    const { host, port, token, cli } = context.endpoint();
    return bridgeView({ running, host, port, cli, token, projectRouting: projects.mode, projects: projects.pinnedProjects() });
  };
  const agents = () => agentViews(presence, projects);
  const publishState = () => control.publish({ type: 'bridge.state', bridge: view() });
  const publishAgents = () => control.publish({ type: 'agents.changed', agents: agents() });
  const reconnectAll = (reason: string) => {
    for (const connection of hub.connections()) connection.close(reason, true);
  };

  const offs = [
    projects.onChanged(() => {
      publishState();
      publishAgents();
    }),
    presence.events.on('connected', publishAgents),
    presence.events.on('disconnected', ({ agent }) => {
      if (agent.sessionId) projects.forgetSession(agent.sessionId);
      publishAgents();
    }),
    source.events.on('pluginConnected', (plugin) => control.publish({ type: 'plugin.connected', plugin })),
    source.events.on('pluginUpdated', (plugin) => control.publish({ type: 'plugin.updated', plugin })),
    source.events.on('pluginDisconnected', ({ connectionId }) => control.publish({ type: 'plugin.disconnected', connectionId })),
    source.events.on('operatorNotice', (notice) => control.publish({ type: 'notice.raised', notice })),
    // An editor and a runtime publishing the same tool is the normal pairing, not an operator problem.
    source.events.on('diagnostic', (diagnostic) => logger.debug(`bridge: ${diagnostic.message}`)),
    source.events.on('listDegraded', (diagnostic) => logger.warn(`bridge: ${diagnostic.message}`)),
    // The bridge's own findings (malformed plugin payloads, failed tool lists) are logged once each; a plugin's own log lines stay at debug.
    source.events.on('log', (entry) => (entry.origin === 'bridge' ? logger.warn : logger.debug)(`plugin ${entry.connectionId}: ${entry.message}`)),
  ];

  const setRunning = (next: boolean): BridgeView => {
    if (running !== next) {
      running = next;
      if (!next) reconnectAll('The operator stopped the bridge.');
      publishState();
      logger.info(`bridge ${next ? 'started' : 'stopped'} by the operator`);
    }
    return view();
  };

  const gate = (route: RouteHandler): RouteHandler => ({
    handleRequest(req, res) {
      if (running) return route.handleRequest?.(req, res) ?? false;
      const claimed = BRIDGE_PATHS.test(requestPath(req));
      if (claimed) sendError(res, { code: 'PluginUnavailable', message: 'The operator stopped the bridge; start it from the console.' });
      return claimed;
    },
    handleUpgrade(req, socket, head) {
      if (running) return route.handleUpgrade?.(req, socket, head) ?? false;
      return false;
    },
  });

  return {
    source,
    projects,
    presence,
    toolSources: [source.selectionTools, source.tools],
    running: () => running,
    gate,
    routes: [gate(hub), gate(pinGate({ multi: () => projects.mode === 'multi', refused: context.refused }))],
    announce: publishState,
    views: {
      plugins: () => source.pluginViews(),
      bridge: view,
      agents,
      pluginCatalogue(connectionId) {
        const published = source.pluginCatalogue(connectionId);
        if (!published) return undefined;
        return {
          tools: published.tools.map((d) => toolEntryOf(d, 'bridge')),
          prompts: published.prompts.map((p) => ({ name: p.name, ...(p.description ? { description: p.description } : {}), ...(p.arguments ? { arguments: p.arguments } : {}) })),
          resources: published.resources.map((r) => ({ uri: r.uri, name: r.name, ...(r.description ? { description: r.description } : {}), ...(r.mimeType ? { mimeType: r.mimeType } : {}) })),
        };
      },
    },
    commands: {
      startBridge: () => setRunning(true),
      stopBridge: () => setRunning(false),
      setProjectRouting({ mode }) {
        if (projects.mode !== mode) {
          projects.setMode(mode);
          // Plugins come back at once and are grouped under the new routing.
          reconnectAll('The operator switched project routing; reconnect.');
          logger.info(`project routing switched to ${mode} by the operator`);
        }
        return view();
      },
    },
    status: { bridge: () => ({ plugins: source.pluginViews(), diagnostics: [...source.diagnostics(), ...source.degradedLists()] }) },
    async dispose() {
      for (const off of offs) off();
      detachPresence();
      presence.dispose();
      await hub.close();
      source.dispose();
    },
  };
}
