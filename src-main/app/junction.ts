/**
 * The composition root: mounts each room's part in dependency order and connects what they
 * contribute (tool sources, routes, console views and commands, status). Every part started is pushed
 * onto one dispose stack, which unwinds in reverse order on close and on a start that fails at any
 * step. Nothing here decides behaviour; the parts do.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditTrail } from '../audit/index.js';
import { mountAudit } from '../audit/index.js';
import { mountBridge } from '../bridge/index.js';
import type { PluginBridge } from '../bridge/plugin-hub/index.js';
import { mountWebhooks } from '../bridge/webhooks/index.js';
import { mountConsole, mountControl, toolEntryOf, type ControlHub } from '../control/index.js';
import type { Host } from '../host/index.js';
import { mountHost, openConfiguredWorkspaces } from '../host/mount/index.js';
import { mountMcp, type McpServerFactory } from '../mcp/index.js';
import { mountPolicy } from '../policy/index.js';
import { mountRecovery } from '../recovery/index.js';
import { assertBindAllowed, createAuthenticator, loadOrCreateToken } from '../security/index.js';
import { createLogger, type Logger } from '../shared/index.js';
import { createAccessGate, pluginAuthorizer } from './access.js';
import { createAdmission } from './admission.js';
import { userStateDir, type Config, type ConfigOrigins } from './config/index.js';
import { agentContent } from './content.js';
import { gatedSystemTools } from './gated-system-tools.js';
import { healthRoutes, type StartupProgress } from './http/health.js';
import { bodyReader } from './http/read-body.js';
import { mountHttp } from './http/server.js';
import { explainStateDirInUse, removeInstanceRecord, writeInstanceRecord } from './instance-record.js';
import { apiCallerLabel, consoleCallObserver } from './observers.js';
import { onceLogger } from './once-log.js';
import { cliInvocation, CONSOLE_BUNDLE_DIR, EXAMPLE_IN_PROCESS_PLUGINS_DIR, nodeCommand, PROJECT_ROOT } from './paths.js';
import { DisposeStack } from './runtime/dispose-stack.js';
import { IDLE_HEAP, IdleHeap } from './runtime/idle-heap.js';
import { RuntimeSettings } from './settings-view.js';

export const JUNCTION_VERSION: string = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The start, in order; each step's part is closed before the parts of the steps above it. */
export const START_STEPS = ['control', 'policy', 'state', 'recovery', 'audit', 'webhooks', 'host', 'bridge', 'heap', 'mcp', 'console', 'http', 'workspaces', 'instance'] as const;
export type StartStep = (typeof START_STEPS)[number];

export interface JunctionOptions {
  config: Config;
  /** Where each configuration value came from, for the console's Settings view (all defaults when absent). */
  origins?: ConfigOrigins;
  settingsPath?: string;
  logger?: Logger;
  /** Told after each step of the start; a throw fails the start there (tests inject failures with it). */
  afterStep?: (step: StartStep) => void | Promise<void>;
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
  readonly workspaceHost: Host;
  readonly control: ControlHub;
  readonly mcpFactory: McpServerFactory;
  /** The audit trail, absent when audit=false. */
  readonly audit: AuditTrail | undefined;
  /** The plugin bridge (MCP extension state is read from it in tests and the console). */
  readonly bridge: PluginBridge;
  close(): Promise<void>;
}

/**
 * The state directory and the agent token. auth=token without token= uses the one generated and stored
 * in the state directory on first run; a refused bind (auth=none off loopback) touches nothing on disk.
 */
async function prepareState(config: Config): Promise<{ stateDir: string; agentToken: string | undefined }> {
  const stateDir = config['state-dir'] ?? userStateDir();
  const agentToken = config.auth === 'token' ? (config.token ?? (await loadOrCreateToken(stateDir))) : undefined;
  assertBindAllowed({ host: config.host, mode: config.auth, token: agentToken });
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  return { stateDir, agentToken };
}

async function unwind(stack: DisposeStack, logger: Logger): Promise<void> {
  for (const failure of await stack.unwind()) logger.warn(`closing ${failure.name} failed: ${(failure.error as Error)?.message ?? String(failure.error)}`);
}

export async function startJunction(options: JunctionOptions): Promise<Junction> {
  const logger = options.logger ?? createLogger(options.config['log-level']);
  const stack = new DisposeStack();
  const step: Step = async (name, start) => {
    const part = await start();
    // A part that holds something (a lock, a port, a thread, a timer) says how to let it go.
    const dispose: unknown = (part as { dispose?: unknown }).dispose;
    if (typeof dispose === 'function') stack.push(name, () => (dispose as () => unknown).call(part));
    await options.afterStep?.(name);
    return part;
  };
  try {
    return await mountAll(options, logger, step, () => unwind(stack, logger));
  } catch (error) {
    await unwind(stack, logger);
    throw error;
  }
}

type Step = <T extends object>(name: StartStep, start: () => T | Promise<T>) => Promise<T>;

async function mountAll(options: JunctionOptions, logger: Logger, step: Step, close: () => Promise<void>): Promise<Junction> {
  const { config } = options;
  const { control } = await step('control', () => mountControl({ version: JUNCTION_VERSION, maxCalls: config['console-call-history'] }));
  // An invalid policy stops Junction here, naming the rule and field, before anything is opened on disk.
  const policy = await step('policy', () =>
    mountPolicy({
      file: config['approval-policy'],
      timeoutMs: config['approval-timeout'] * 1000,
      maxHeld: config['approval-max-held'],
      maxHeldBytes: config['approval-max-held-mb'] * 1024 * 1024,
      logger,
      control,
    }),
  );
  const { stateDir, agentToken } = await step('state', () => prepareState(config));
  const recovery = await step('recovery', () => mountRecovery({ stateDir, logger }).catch((error: unknown) => Promise.reject(explainStateDirInUse(error, stateDir))));
  // Opened only once the state-directory lock is held, so a refused second instance touches no audit file.
  const audit = await step('audit', () =>
    mountAudit({ enabled: config.audit, stateDir, redact: config.redact, retentionDays: config['audit-retention-days'], maxMb: config['audit-max-mb'], logger, events: control }),
  );
  const webhooks = await step('webhooks', () =>
    mountWebhooks({
      urls: { tool: config['webhook-tool-url'], prompt: config['webhook-prompt-url'], resource: config['webhook-resource-url'], connection: config['webhook-connection-url'], authorization: config['webhook-authorization-url'] },
      token: config['webhook-token'],
      headerName: config['webhook-header'],
      timeoutMs: config['webhook-timeout'],
      authorizationFailOpen: config['webhook-authorization-fail-open'],
      logger,
      events: control,
    }),
  );
  const refused = onceLogger(logger);
  const tokenOnly = createAuthenticator({ mode: config.auth, token: agentToken });
  const full = createAuthenticator({ mode: config.auth, token: agentToken, webhook: webhooks.authorization });
  const host = await step('host', () =>
    mountHost({
      mode: config.mode,
      toolOutputSchema: config['tool-output-schema'],
      codeActionReferenceLifetimeMs: config['code-action-reference-lifetime'],
      journal: recovery.journal,
      trustedRoots: config.workspace,
      pluginsDir: config['plugins-dir'] ?? (config.demo ? EXAMPLE_IN_PROCESS_PLUGINS_DIR : undefined),
      logger,
      control,
    }),
  );
  let boundPort = config.port;
  const bridge = await step('bridge', () =>
    mountBridge({
      version: JUNCTION_VERSION,
      hub: { maxFrameBytes: config['max-frame-bytes'], keepAliveIntervalMs: config['keep-alive-interval'], clientTimeoutMs: config['client-timeout'], authorize: pluginAuthorizer({ tokenOnly, full, refused }) },
      pluginTimeoutMs: config['plugin-timeout'],
      pluginReconnectWaitSeconds: config['plugin-reconnect-wait-seconds'],
      projectRouting: config['project-routing'],
      visibility: policy.visibility,
      apiIdleMs: config['idle-timeout-seconds'] * 1000,
      serverTransport: config['client-transport'],
      endpoint: () => ({ host: config.host, port: boundPort, token: agentToken, cli: { command: nodeCommand(), args: cliInvocation() } }),
      refused,
      logger,
      control,
    }),
  );
  const { idleHeap } = await step('heap', () => {
    const heap = new IdleHeap(IDLE_HEAP);
    const unsubscribe = control.subscribe((event) => {
      if (event.type === 'plugin.connected' || event.type === 'plugin.disconnected') heap.worked();
    });
    return {
      idleHeap: heap,
      dispose: () => {
        unsubscribe();
        heap.close();
      },
    };
  });
  const readBody = bodyReader({ maxBytes: config['max-body-bytes'], timeoutMs: config['body-timeout'] });
  const mcp = await step('mcp', () =>
    mountMcp({
      name: 'junction',
      version: JUNCTION_VERSION,
      instructions: 'Junction bridges live applications (editor and runtime plugins) and hosts transactional workspace tools. Call server-status first.',
      toolSources: [...host.toolSources, ...bridge.toolSources],
      content: agentContent({ host: host.host, plugins: bridge.source.content, analytics: webhooks.analytics }),
      observers: [consoleCallObserver(control, audit.redaction), ...audit.observers, ...webhooks.observers, idleHeap.observer],
      admission: createAdmission({ ratePerSecond: config['rate-limit'], burst: config['rate-limit-burst'], maxInFlight: config['max-in-flight-per-agent'] }),
      gate: policy.callApprovals,
      visibility: policy.visibility,
      elicitationAnswerer: config['elicitation-answerer'],
      sessionClosed: (session) => policy.callApprovals.endSession(session),
      sessions: { opened: (session) => bridge.presence.opened(session), closed: (session) => bridge.presence.closed(session.sessionId) },
      apiCaller: (req) => bridge.presence.apiCall(apiCallerLabel(req)),
      statelessAgent: (agent) => bridge.presence.statelessCall(agent),
      systemTools: gatedSystemTools(bridge.source.systemTools, policy.callApprovals, (connectionId) => bridge.source.systemTools.targetOfConnection(connectionId)),
      readBody,
      idleTimeoutMs: config['idle-timeout-seconds'] * 1000,
      maxSessions: config['max-idle-session-count'],
      control,
    }),
  );
  for (const [name, status] of Object.entries({ ...bridge.status, ...mcp.status })) host.host.provideStatus(name, status);

  const settings = new RuntimeSettings({
    config,
    origins: options.origins ?? {},
    ...(options.settingsPath ? { settingsPath: options.settingsPath } : {}),
    setters: {
      ...(logger.setLevel ? { 'log-level': (level: Config['log-level']) => logger.setLevel?.(level) } : {}),
      'plugin-timeout': (ms: number) => bridge.source.setCallTimeout(ms),
      'elicitation-answerer': (answerer: Config['elicitation-answerer']) => mcp.commands.setElicitationAnswerer({ answerer }),
    },
  });
  control.serve({
    providers: {
      ...recovery.views,
      ...host.views,
      ...policy.views,
      ...bridge.views,
      ...mcp.views,
      ...audit.views,
      tools: () => mcp.catalogue.listTools().map((d) => toolEntryOf(d, mcp.catalogue.resolve(d.name)?.source.id ?? 'none')),
    },
    commands: {
      ...recovery.commands,
      ...host.commands,
      ...policy.commands,
      ...bridge.commands,
      ...mcp.commands,
      // Through the setting, so Settings and Live calls agree whichever way it was switched.
      setElicitationAnswerer: ({ answerer }) => {
        settings.update('elicitation-answerer', answerer);
        return mcp.views.elicitations();
      },
      ...audit.commands(mcp.dispatcher),
      settings: () => settings.view(),
      updateSetting: ({ key, value }) => {
        const view = settings.update(key, value);
        logger.info(`setting ${key} changed from the console`);
        return view;
      },
    },
  });

  const consoleToken = randomBytes(24).toString('base64url');
  const consolePart = config.console
    ? await step('console', () => mountConsole({ control, token: consoleToken, staticDir: CONSOLE_BUNDLE_DIR, exportAudit: audit.audit ? (request, out) => audit.audit!.export(request, out) : undefined }))
    : await step('console', () => ({ route: undefined }) as { route: undefined });
  // Recovery ran before the server listens; readiness waits for the configured workspaces too.
  const startup: StartupProgress = { workspacesOpened: 0, workspacesTotal: config.workspace.length, ready: false };
  const http = await step('http', () =>
    mountHttp({
      routes: [
        healthRoutes({ version: JUNCTION_VERSION, bridgeRunning: bridge.running, startup: () => startup }),
        ...bridge.routes,
        ...mcp.routes.map(bridge.gate),
        ...(consolePart.route ? [consolePart.route] : []),
      ],
      gate: createAccessGate({ port: () => boundPort, bindHost: config.host, tokenOnly, full }),
      port: config.port,
      host: config.host,
    }),
  );
  boundPort = http.port;
  bridge.announce();
  logger.info(`listening on ${config.host}:${boundPort}`);

  await step('workspaces', () =>
    openConfiguredWorkspaces(host.host, config.workspace, { sweepTemps: (root) => recovery.journal.sweepTemps(root), logger, opened: () => startup.workspacesOpened++ }).then(() => ({})),
  );
  startup.ready = true;
  idleHeap.afterStart();

  const displayHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const baseUrl = `http://${displayHost}:${boundPort}`;
  await step('instance', async () => {
    await writeInstanceRecord(stateDir, { pid: process.pid, baseUrl });
    return { dispose: () => removeInstanceRecord(stateDir, process.pid) };
  });
  return {
    port: boundPort,
    host: config.host,
    baseUrl,
    consoleUrl: `${baseUrl}/?token=${consoleToken}`,
    consoleToken,
    agentToken,
    stateDir,
    workspaceHost: host.host,
    control,
    mcpFactory: mcp.factory,
    audit: audit.audit,
    bridge: bridge.source,
    close,
  };
}
