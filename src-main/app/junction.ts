/**
 * The composition root: builds every room from the configuration, wires their events together and
 * serves them on one loopback port. Nothing here decides behaviour; it only connects the rooms.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AuditTrail, compileRedaction } from '../audit/index.js';
import { API_VERSION } from '../../plugins/sdk/wire/index.js';
import { attachPluginHub, type PluginBridge } from '../bridge/plugin-hub/index.js';
import { AgentPresence, attachPresence } from '../bridge/presence/index.js';
import { createHubServer } from '../bridge/signalr/index.js';
import { createAnalyticsWebhooks, createAuthorizationWebhook } from '../bridge/webhooks/index.js';
import type { BridgeView, ProjectRouting, ToolDescriptor } from '../contracts/index.js';
import { createConsoleServer, createControlHub, type ToolEntryWithoutStats } from '../control/index.js';
import { createHost } from '../host/index.js';
import {
  ConsoleElicitations,
  createCatalogue,
  createDirectToolApi,
  createDispatcher,
  createMcpHttpHandler,
  createMcpServerFactory,
  createSystemToolApi,
  type McpServerFactory,
} from '../mcp/index.js';
import { CallApprovals, loadPolicyFile, policyFilePersistence, PolicyStore } from '../policy/index.js';
import { createJournal } from '../recovery/index.js';
import { assertBindAllowed, createAuthenticator, loadOrCreateToken } from '../security/index.js';
import { JunctionError } from '../contracts/index.js';
import { createLogger, timeOrderedId, type Logger } from '../shared/index.js';
import { createAccessGate, pluginAuthorizer } from './access.js';
import { createAdmission } from './admission.js';
import { agentViews, bridgeView } from './bridge-views.js';
import { gatedSystemTools } from './gated-system-tools.js';
import { builtInToolSources, inProcessPluginSource } from './built-in-tools.js';
import { userStateDir, type Config, type ConfigOrigins } from './config/index.js';
import { bridgeContentSource, withHostContent } from './content.js';
import { HostContent } from './host-content.js';
import { IdleHeap } from './idle-heap.js';
import { bodyReader } from './http/read-body.js';
import { healthRoutes, type StartupProgress } from './http/health.js';
import { pinGate } from './http/pin-gate.js';
import { explainStateDirInUse, removeInstanceRecord, writeInstanceRecord } from './instance-record.js';
import { closeServer, createHttpServer, listen, sendJsonError, type RouteHandler } from './http/server.js';
import { onceLogger } from './once-log.js';
import { analyticsCallObserver, apiCallerLabel, consoleCallObserver } from './observers.js';
import { cliInvocation, CONSOLE_BUNDLE_DIR, EXAMPLE_IN_PROCESS_PLUGINS_DIR, PROJECT_ROOT } from './paths.js';
import { RuntimeSettings } from './settings-view.js';

/** How often the console's header metrics are recomputed and published. */
const METRICS_INTERVAL_MS = 1000;
/**
 * After a burst of calls, the heap is collected once calls have stopped for 10 to 20 s and it grew by
 * 16 MB, and once 10 s after start (idle-heap.ts): a quiet period long enough that a burst is over, and
 * a pause of tens of milliseconds no agent is waiting on.
 */
const IDLE_HEAP = { quietMs: 10_000, minGrowthBytes: 16 * 1024 * 1024 };

export const JUNCTION_VERSION: string = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export interface JunctionOptions {
  config: Config;
  /** Where each configuration value came from, for the console's Settings view (all defaults when absent). */
  origins?: ConfigOrigins;
  settingsPath?: string;
  logger?: Logger;
}

export interface Junction {
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  /** The console URL with its per-launch token (valid until this instance stops), as printed at start. */
  readonly consoleUrl: string;
  readonly consoleToken: string;
  /** The agent bearer token when auth=token. */
  readonly agentToken: string | undefined;
  readonly stateDir: string;
  readonly workspaceHost: ReturnType<typeof createHost>;
  readonly control: ReturnType<typeof createControlHub>;
  readonly mcpFactory: McpServerFactory;
  /** The audit trail, absent when audit=false. */
  readonly audit: AuditTrail | undefined;
  /** The plugin bridge (MCP extension state is read from it in tests and the console). */
  readonly bridge: PluginBridge;
  close(): Promise<void>;
}

export async function startJunction(options: JunctionOptions): Promise<Junction> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config['log-level']);
  // An invalid policy stops Junction before it opens anything, naming the rule and field.
  const policyPath = config['approval-policy'] ? resolve(config['approval-policy']) : null;
  const policyDocument = policyPath ? await loadPolicyFile(policyPath) : { rules: [] };

  const stateDir = config['state-dir'] ?? userStateDir();
  // Mode token without token= uses the one generated and stored in the state directory on first run;
  // a refused bind (mode none off loopback) touches nothing on disk.
  const agentToken = config.auth === 'token' ? (config.token ?? (await loadOrCreateToken(stateDir))) : undefined;
  assertBindAllowed({ host: config.host, mode: config.auth, token: agentToken });
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });

  const journal = createJournal({ stateDir: join(stateDir, 'recovery'), instanceId: randomUUID() });
  const recoveryReport = await journal.open().catch((error: unknown) => {
    throw explainStateDirInUse(error, stateDir);
  });
  for (const entry of recoveryReport.entries) logger.warn(`recovery: ${entry.outcome} ${entry.manifestPath}: ${entry.detail}`);
  // Opened only once the state-directory lock is held, so a refused second instance touches no audit file.
  const redaction = compileRedaction(config.redact);
  const audit = config.audit
    ? new AuditTrail({ stateDir, rules: redaction, logger, retentionDays: config['audit-retention-days'], maxMb: config['audit-max-mb'] })
    : undefined;

  const webhookCommon = { token: config['webhook-token'], headerName: config['webhook-header'], timeoutMs: config['webhook-timeout'], logger };
  const authorizationWebhook = config['webhook-authorization-url']
    ? createAuthorizationWebhook({ ...webhookCommon, url: config['webhook-authorization-url'], failOpen: config['webhook-authorization-fail-open'] })
    : undefined;
  const analytics = createAnalyticsWebhooks({
    ...webhookCommon,
    urls: {
      tool: config['webhook-tool-url'],
      prompt: config['webhook-prompt-url'],
      resource: config['webhook-resource-url'],
      connection: config['webhook-connection-url'],
    },
  });
  const refused = onceLogger(logger);
  const tokenOnly = createAuthenticator({ mode: config.auth, token: agentToken });
  const full = createAuthenticator({ mode: config.auth, token: agentToken, webhook: authorizationWebhook });

  const host = createHost({
    mode: config.mode,
    toolOutputSchema: config['tool-output-schema'],
    journal,
    trustedRoots: config.workspace,
    logger,
  });

  const hub = createHubServer({
    maxFrameBytes: config['max-frame-bytes'],
    keepAliveIntervalMs: config['keep-alive-interval'],
    clientTimeoutMs: config['client-timeout'],
    authorize: pluginAuthorizer({ tokenOnly, full, refused }),
  });
  const bridge = attachPluginHub(hub, {
    pluginTimeoutMs: config['plugin-timeout'],
    pluginReconnectWaitSeconds: config['plugin-reconnect-wait-seconds'],
    serverVersion: JUNCTION_VERSION,
    projectRouting: config['project-routing'],
  });
  const projects = bridge.projects;
  const presence = new AgentPresence({ apiIdleMs: config['idle-timeout-seconds'] * 1000 });
  const detachPresence = attachPresence(hub, presence, { serverVersion: JUNCTION_VERSION, serverApiVersion: API_VERSION, serverTransport: config['client-transport'] });

  const toolOptions = { mode: config.mode, toolOutputSchema: config['tool-output-schema'], codeActionReferenceLifetimeMs: config['code-action-reference-lifetime'] };
  const builtIn = builtInToolSources(host, toolOptions);
  const pluginsDir = config['plugins-dir'] ?? (config.demo ? EXAMPLE_IN_PROCESS_PLUGINS_DIR : undefined);
  const inProcess = pluginsDir ? [await inProcessPluginSource(host, builtIn, { ...toolOptions, directory: pluginsDir })] : [];
  host.provideStatus('bridge', () => ({ plugins: bridge.pluginViews(), diagnostics: [...bridge.diagnostics(), ...bridge.degradedLists()] }));
  // The selection tools come before the bridge so no plugin can shadow them.
  const catalogue = createCatalogue([...builtIn, ...inProcess, bridge.selectionTools, bridge.tools]);
  const hostContent = new HostContent({
    workspaces: { list: () => host.extensions.workspaces.list(), resolve: (selector) => host.extensions.workspaces.resolve(selector) },
    tools: (scope) => catalogue.listTools(scope),
  });
  host.provideStatus('catalogue', () => ({ collisions: catalogue.collisions() }));
  let bridgeRunning = true;
  let boundPort = config.port;
  const currentBridgeView = (): BridgeView =>
    bridgeView({
      running: bridgeRunning,
      host: config.host,
      port: boundPort,
      cliArgs: cliInvocation(),
      token: agentToken,
      projectRouting: projects.mode,
      projects: projects.pinnedProjects(),
    });
  const currentAgentViews = () => agentViews(presence, projects);

  const runtimeSettings = new RuntimeSettings({
    config,
    origins: options.origins ?? {},
    ...(options.settingsPath ? { settingsPath: options.settingsPath } : {}),
    setters: {
      ...(logger.setLevel ? { 'log-level': (level: Config['log-level']) => logger.setLevel?.(level) } : {}),
      'plugin-timeout': (ms: number) => bridge.setCallTimeout(ms),
      'elicitation-answerer': (answerer: Config['elicitation-answerer']) => elicitations.setAnswerer(answerer),
    },
  });
  const toolEntry = (descriptor: ToolDescriptor, source: string): ToolEntryWithoutStats => ({
    name: descriptor.name,
    ...(descriptor.title ? { title: descriptor.title } : {}),
    ...(descriptor.description ? { description: descriptor.description } : {}),
    inputSchema: descriptor.inputSchema,
    ...(descriptor.annotations ? { annotations: descriptor.annotations } : {}),
    source,
  });

  const elicitations = new ConsoleElicitations(config['elicitation-answerer']);
  const control = createControlHub({
    version: JUNCTION_VERSION,
    limits: { maxCalls: config['console-call-history'] },
    providers: {
      elicitations: () => elicitations.view(),
      plugins: () => bridge.pluginViews(),
      workspaces: () => host.workspaces(),
      approvals: () => host.approvals.pending(),
      recovery: () => journal.status(),
      bridge: currentBridgeView,
      callApprovals: () => callApprovals.views(),
      policy: () => policy.view(),
      ...(audit ? { history: audit.history } : {}),
      agents: currentAgentViews,
      tools: () => catalogue.listTools().map((d) => toolEntry(d, catalogue.resolve(d.name)?.source.id ?? 'none')),
      pluginCatalogue: (connectionId) => {
        const published = bridge.pluginCatalogue(connectionId);
        if (!published) return undefined;
        return {
          tools: published.tools.map((d) => toolEntry(d, 'bridge')),
          prompts: published.prompts.map((p) => ({ name: p.name, ...(p.description ? { description: p.description } : {}), ...(p.arguments ? { arguments: p.arguments } : {}) })),
          resources: published.resources.map((r) => ({ uri: r.uri, name: r.name, ...(r.description ? { description: r.description } : {}), ...(r.mimeType ? { mimeType: r.mimeType } : {}) })),
        };
      },
    },
    commands: {
      approve: ({ approvalId }) => host.approvals.decide(approvalId, 'approve'),
      deny: ({ approvalId, reason }) => host.approvals.decide(approvalId, 'deny', reason),
      openWorkspace: ({ root, trusted }) => host.openWorkspace(root, { trusted }),
      rollback: ({ workspaceId, toRevision }) => host.rollback(workspaceId, toRevision),
      startBridge: () => setBridgeRunning(true),
      stopBridge: () => setBridgeRunning(false),
      setProjectRouting: ({ mode }) => setProjectRouting(mode),
      recover: async () => {
        await journal.recover();
        return journal.status();
      },
      runTool: async ({ name, args }) => {
        const callId = timeOrderedId();
        const outcome = await dispatcher.call({ name, args, agent: 'console', transport: 'console', signal: new AbortController().signal, callId });
        return { callId, result: outcome.result };
      },
      settings: () => runtimeSettings.view(),
      updateSetting: ({ key, value }) => {
        const view = runtimeSettings.update(key, value);
        logger.info(`setting ${key} changed from the console`);
        return view;
      },
      answerElicitation: ({ elicitationId, ...answer }) => elicitations.answer(elicitationId, answer),
      answerSampling: ({ samplingId, ...answer }) => elicitations.answerSampling(samplingId, answer),
      // Through the setting, so Settings and Live calls agree whichever way it was switched.
      setElicitationAnswerer: ({ answerer }) => {
        runtimeSettings.update('elicitation-answerer', answerer);
        return elicitations.view();
      },
      decideCall: (decision) => callApprovals.decide(decision),
      savePolicy: ({ text, baseVersion }) => policy.replace(text, baseVersion),
      replay: async ({ callId }) => {
        if (!audit) throw new JunctionError('ReplayRefused', 'The audit trail is off (audit=false), so there is no recorded call to replay.');
        return audit.replay(dispatcher, callId);
      },
    },
  });
  const metricsTimer = setInterval(() => control.publishMetrics(), METRICS_INTERVAL_MS);
  metricsTimer.unref();
  const policy = new PolicyStore({
    path: policyPath,
    document: policyDocument,
    ...(policyPath ? { persistence: policyFilePersistence(policyPath) } : {}),
  });
  const stopPolicyEvents = policy.onChanged((view, change) => {
    audit?.policyEdited(view, change);
    control.publish({ type: 'policy.updated', policy: view, change });
  });
  const callApprovals = new CallApprovals({
    store: policy,
    timeoutMs: config['approval-timeout'] * 1000,
    events: {
      requested: (approval) => control.publish({ type: 'callApproval.requested', approval }),
      decided: (approval) => control.publish({ type: 'callApproval.decided', approval }),
    },
  });

  const setBridgeRunning = async (running: boolean): Promise<BridgeView> => {
    if (bridgeRunning !== running) {
      bridgeRunning = running;
      if (!running) for (const connection of hub.connections()) connection.close('The operator stopped the bridge.', true);
      control.publish({ type: 'bridge.state', bridge: currentBridgeView() });
      logger.info(`bridge ${running ? 'started' : 'stopped'} by the operator`);
    }
    return currentBridgeView();
  };

  const setProjectRouting = (mode: ProjectRouting): BridgeView => {
    if (projects.mode !== mode) {
      projects.setMode(mode);
      // Plugins come back at once and are grouped under the new routing.
      for (const connection of hub.connections()) connection.close('The operator switched project routing; reconnect.', true);
      logger.info(`project routing switched to ${mode} by the operator`);
    }
    return currentBridgeView();
  };
  const publishAgents = () => control.publish({ type: 'agents.changed', agents: currentAgentViews() });
  const unsubscribe = [
    projects.onChanged(() => {
      control.publish({ type: 'bridge.state', bridge: currentBridgeView() });
      publishAgents();
    }),
    presence.events.on('connected', publishAgents),
    presence.events.on('disconnected', ({ agent }) => {
      if (agent.sessionId) projects.forgetSession(agent.sessionId);
      publishAgents();
    }),
    bridge.events.on('pluginConnected', (plugin) => {
      control.publish({ type: 'plugin.connected', plugin });
      audit?.plugin('plugin.connected', { connectionId: plugin.connectionId, role: plugin.role, name: plugin.name, pluginVersion: plugin.pluginVersion ?? null });
      analytics.emit('connection', 'connection.plugin.connected', { connectionId: plugin.connectionId, role: plugin.role, name: plugin.name });
    }),
    bridge.events.on('pluginUpdated', (plugin) => control.publish({ type: 'plugin.updated', plugin })),
    bridge.events.on('operatorNotice', (notice) => control.publish({ type: 'notice.raised', notice })),
    bridge.events.on('pluginDisconnected', ({ connectionId }) => {
      control.publish({ type: 'plugin.disconnected', connectionId });
      audit?.plugin('plugin.disconnected', { connectionId });
      analytics.emit('connection', 'connection.plugin.disconnected', { connectionId });
    }),
    // An editor and a runtime publishing the same tool is the normal pairing, not an operator problem.
    bridge.events.on('diagnostic', (diagnostic) => logger.debug(`bridge: ${diagnostic.message}`)),
    bridge.events.on('listDegraded', (diagnostic) => logger.warn(`bridge: ${diagnostic.message}`)),
    // The bridge's own findings (malformed plugin payloads, failed tool lists) are logged once each; a plugin's own log lines stay at debug.
    bridge.events.on('log', (entry) => (entry.origin === 'bridge' ? logger.warn : logger.debug)(`plugin ${entry.connectionId}: ${entry.message}`)),
    host.events.on('workspace.updated', (event) => {
      hostContent.workspaceChanged();
      audit?.workspaceUpdated(event.workspace);
      control.publish(event);
    }),
    host.events.on('approval.requested', (event) => {
      audit?.approval(event.type, event.approval);
      control.publish(event);
    }),
    host.events.on('approval.decided', (event) => {
      audit?.approval(event.type, event.approval);
      control.publish(event);
    }),
    elicitations.events.on('pending', (elicitation) => control.publish({ type: 'elicitation.pending', elicitation })),
    elicitations.events.on('resolved', (elicitationId) => control.publish({ type: 'elicitation.resolved', elicitationId })),
    elicitations.events.on('answerer', (answerer) => control.publish({ type: 'elicitation.answerer', answerer })),
    elicitations.events.on('samplingPending', (sampling) => control.publish({ type: 'sampling.pending', sampling })),
    elicitations.events.on('samplingResolved', (samplingId) => control.publish({ type: 'sampling.resolved', samplingId })),
  ];

  const idleHeap = new IdleHeap(IDLE_HEAP);
  const dispatcher = createDispatcher(
    catalogue,
    [consoleCallObserver(control, redaction), ...(audit ? [audit.observer] : []), ...(analytics.enabled ? [analyticsCallObserver(analytics)] : []), idleHeap.observer],
    createAdmission({ ratePerSecond: config['rate-limit'], burst: config['rate-limit-burst'], maxInFlight: config['max-in-flight-per-agent'] }),
    callApprovals,
    { elicitations },
  );
  const mcpFactory = createMcpServerFactory({
    name: 'junction',
    version: JUNCTION_VERSION,
    instructions: 'Junction bridges live applications (editor and runtime plugins) and hosts transactional workspace tools. Call server-status first.',
    catalogue,
    dispatcher,
    content: withHostContent(hostContent, bridgeContentSource(bridge.content, analytics)),
    sessionClosed: (session) => callApprovals.endSession(session),
    sessions: { opened: (session) => presence.opened(session), closed: (session) => presence.closed(session.sessionId) },
  });
  const readBody = bodyReader({ maxBytes: config['max-body-bytes'], timeoutMs: config['body-timeout'] });
  const mcpHttp = createMcpHttpHandler({
    factory: mcpFactory,
    idleTimeoutMs: config['idle-timeout-seconds'] * 1000,
    maxSessions: config['max-idle-session-count'],
    readBody,
  });
  const directApi = createDirectToolApi({ catalogue, dispatcher, readBody, onCaller: (req) => presence.apiCall(apiCallerLabel(req)) });
  const systemToolApi = createSystemToolApi({
    provider: gatedSystemTools(bridge.systemTools, callApprovals, (connectionId) => bridge.systemTools.targetOfConnection(connectionId)),
    readBody,
  });
  const consoleToken = randomBytes(24).toString('base64url');
  const consoleServer = config.console
    ? createConsoleServer({ hub: control, token: consoleToken, staticDir: CONSOLE_BUNDLE_DIR, ...(audit ? { exportAudit: (request, out) => audit.export(request, out) } : {}) })
    : undefined;

  const whenBridgeRunning = (route: RouteHandler): RouteHandler => ({
    handleRequest(req, res) {
      if (bridgeRunning) return route.handleRequest?.(req, res) ?? false;
      const claimed = /^\/(mcp|api|hub|p)(\/|$)/i.test(new URL(req.url ?? '/', 'http://x').pathname);
      if (claimed) sendJsonError(res, 503, { code: 'PluginUnavailable', message: 'The operator stopped the bridge; start it from the console.' });
      return claimed;
    },
    handleUpgrade(req, socket, head) {
      if (bridgeRunning) return route.handleUpgrade?.(req, socket, head) ?? false;
      return false;
    },
  });
  // Recovery ran before the server listens; readiness waits for the configured workspaces too.
  const startup: StartupProgress = { workspacesOpened: 0, workspacesTotal: config.workspace.length, ready: false };
  const health = healthRoutes({ version: JUNCTION_VERSION, bridgeRunning: () => bridgeRunning, startup: () => startup });
  const pins = pinGate({ multi: () => projects.mode === 'multi', refused });
  const routes: RouteHandler[] = [
    health,
    whenBridgeRunning(hub),
    whenBridgeRunning(pins),
    whenBridgeRunning(mcpHttp),
    whenBridgeRunning(directApi),
    whenBridgeRunning(systemToolApi),
    ...(consoleServer ? [consoleServer] : []),
  ];
  const server = createHttpServer(routes, createAccessGate({ port: () => boundPort, bindHost: config.host, tokenOnly, full }));
  try {
    boundPort = (await listen(server, config.port, config.host)).port;
  } catch (error) {
    await Promise.allSettled([hub.close(), journal.close()]);
    audit?.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new JunctionError('ConfigInvalid', code === 'EADDRINUSE' ? `port: ${config.port} on ${config.host} is already in use; pass --port N (0 picks a free one).` : `cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  control.publish({ type: 'bridge.state', bridge: currentBridgeView() });
  logger.info(`listening on ${config.host}:${boundPort}`);

  for (const root of config.workspace) {
    const swept = await journal.sweepTemps(root);
    if (swept > 0) logger.warn(`recovery: removed ${swept} temp files a failed commit left in ${root}`);
    await host.openWorkspace(root, { trusted: true });
    startup.workspacesOpened++;
  }
  startup.ready = true;
  idleHeap.afterStart();

  const displayHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const baseUrl = `http://${displayHost}:${boundPort}`;
  await writeInstanceRecord(stateDir, { pid: process.pid, baseUrl });
  let closing: Promise<void> | undefined;
  return {
    port: boundPort,
    host: config.host,
    baseUrl,
    consoleUrl: `${baseUrl}/?token=${consoleToken}`,
    consoleToken,
    agentToken,
    stateDir,
    workspaceHost: host,
    control,
    mcpFactory,
    audit,
    bridge,
    close() {
      closing ??= (async () => {
        clearInterval(metricsTimer);
        idleHeap.close();
        for (const u of unsubscribe) u();
        stopPolicyEvents();
        callApprovals.close();
        await consoleServer?.close();
        await mcpHttp.close();
        mcpFactory.close();
        detachPresence();
        presence.dispose();
        await hub.close();
        bridge.dispose();
        catalogue.close();
        await closeServer(server);
        await host.close();
        await analytics.close();
        await removeInstanceRecord(stateDir, process.pid);
        await journal.close();
        audit?.close();
      })();
      return closing;
    },
  };
}
