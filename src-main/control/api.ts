/**
 * The console's one typed interface: commands it may issue and the events it observes.
 * Electron IPC and the browser WebSocket both carry exactly these shapes; the renderer never knows which.
 * Additive only: new fields and event types may appear, existing ones keep their meaning.
 */
import type { StructuredError } from '../shared/errors.js';

export type PluginRole = 'editor' | 'runtime';

export interface PluginView {
  connectionId: string;
  role: PluginRole;
  name: string;
  /** The plugin's own version from its handshake. */
  pluginVersion?: string;
  /** The McpPlugin protocol version the plugin reported (`mcpPluginVersion`), absent for 8.0-era plugins. */
  mcpPluginVersion?: string;
  environment?: string;
  connectedAt: number;
  reconnects: number;
  toolCount: number;
  promptCount: number;
  resourceCount: number;
  state: 'connected' | 'awaited';
  /** Epoch ms until which a disconnected plugin is awaited back (state `awaited`). */
  awaitedUntil?: number;
  /** The project the plugin belongs to (from its hub query); plugins with the same `key` are one project. */
  project?: PluginProjectView;
  /** What the operator should know about this plugin now, e.g. a prompts list that failed and is served empty. */
  warnings?: string[];
}

export interface PluginProjectView {
  key: string;
  /** `engine:project on machine`. */
  label: string;
  engine?: string;
  projectName?: string;
  machineName?: string;
  instanceId?: string;
  /** The pin agents use in `/p/{pin}/…` routes; absent when the plugin sends no project path hash. */
  pin?: string;
}

/** An agent session (MCP over HTTP or stdio) or a direct HTTP API caller, as plugins are told about it. */
export interface AgentView {
  sessionId: string;
  transport: CallView['transport'];
  clientName?: string;
  clientVersion?: string;
  /** The project pin of the route the agent uses. */
  pin?: string;
  /** The project key the agent's calls currently go to (multi-project routing), if any. */
  projectKey?: string;
}

export type ProjectRouting = 'single' | 'multi';

export interface ProjectEndpointView {
  key: string;
  label: string;
  pin: string;
  mcpUrl: string;
  apiUrl: string;
  /** Streamable HTTP client configuration for this project. */
  snippet: string;
  /** Claude Desktop (stdio through `junction connect project-pin=…`) configuration for this project. */
  stdioSnippet?: string;
}

export type CallStatus = 'running' | 'ok' | 'error';

export interface CallView {
  callId: string;
  agent: string;
  /** `console` for calls the operator ran from the console. */
  transport: 'mcp-http' | 'mcp-stdio' | 'http-api' | 'console';
  tool: string;
  /** `host`, `plugin:<id>` or `bridge:<role>` */
  target: string;
  /** The plugin instance that answered a bridged call (absent for host and in-process tools). */
  servedBy?: ServedByView;
  status: CallStatus;
  startedAt: number;
  durationMs?: number;
  requestBytes: number;
  responseBytes?: number;
  progress?: { progress: number; total?: number; message?: string };
  errorCode?: string;
}

export interface ServedByView {
  connectionId: string;
  name: string;
  role: PluginRole;
  pluginVersion?: string;
}

/** Last-minute call statistics, computed on the server from the call stream (one point per second). */
export interface MetricsView {
  at: number;
  windowSeconds: number;
  callsPerSecond: number;
  /** Failed calls / finished calls over the window (0 when none finished). */
  errorRatio: number;
  p50Ms?: number;
  p99Ms?: number;
  inFlight: number;
  /** Agents that finished a call in the window. */
  activeAgents: string[];
  /** Oldest second first; latency points are null for seconds without calls. */
  series: { calls: number[]; errors: number[]; p50Ms: Array<number | null>; p99Ms: Array<number | null> };
}

export interface ToolStatsView {
  calls: number;
  errors: number;
  p50Ms?: number;
}

/** A tool as agents see it in tools/list, with the source that serves it and its call totals. */
export interface ToolCatalogueEntry {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** `host`, `bridge`, `plugin:<id>`. */
  source: string;
  stats: ToolStatsView;
}

export interface PluginTimelineEntry {
  at: number;
  kind: 'connected' | 'reconnected' | 'updated' | 'disconnected';
  detail: string;
}

/** One plugin connection in depth: what it publishes and how its connection has behaved. */
export interface PluginDetailView {
  plugin: PluginView;
  tools: ToolCatalogueEntry[];
  prompts: Array<{ name: string; description?: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> }>;
  resources: Array<{ uri: string; name: string; description?: string; mimeType?: string }>;
  timeline: PluginTimelineEntry[];
}

export type SettingOrigin = 'default' | 'settings file' | 'environment' | 'command line' | 'console';

export interface SettingView {
  key: string;
  /** Secrets are masked (`••••••`) and never leave the process in clear. */
  value: string | number | boolean | string[] | null;
  secret: boolean;
  origin: SettingOrigin;
  /** How it was spelled where it came from (`--port`, `JUNCTION_PORT`, `"port" in …`). */
  source?: string;
  description: string;
  /** Present when the value can change while Junction runs. */
  editable?: { kind: 'enum'; values: string[] } | { kind: 'int'; min: number; max: number };
}

export interface SettingsView {
  settingsPath?: string;
  settings: SettingView[];
}

export interface RunToolResult {
  callId: string;
  result: unknown;
}

export interface CallDetail {
  call: CallView;
  arguments: unknown;
  result?: unknown;
  /** True when arguments or result exceeded the per-call cap and were replaced by a text preview. */
  truncated?: boolean;
}

export interface FileDiffView {
  path: string;
  change: 'create' | 'modify' | 'delete' | 'rename';
  previousPath?: string;
  /** Unified diff text. */
  diff: string;
  truncated: boolean;
}

export interface DiagnosticView {
  path: string;
  line: number;
  column: number;
  code: string;
  message: string;
  category: 'error' | 'warning' | 'suggestion' | 'message';
}

export interface RevisionView {
  revision: number;
  summary: string;
  stagedAt: number;
  files: FileDiffView[];
  diagnosticsAdded: DiagnosticView[];
  diagnosticsRemoved: DiagnosticView[];
}

export interface TransactionView {
  workspaceId: string;
  transactionId: string;
  state: 'active' | 'committed' | 'rolledBack';
  startedAt: number;
  revisions: RevisionView[];
}

export interface WorkspaceView {
  workspaceId: string;
  root: string;
  name: string;
  epoch: number;
  trusted: boolean;
  mode: string;
  documentCount: number;
  transaction?: TransactionView;
}

export interface ApprovalView {
  approvalId: string;
  workspaceId: string;
  transactionId: string;
  revision: number;
  requestedAt: number;
  /** Exactly what would be committed. */
  files: FileDiffView[];
  state: 'pending' | 'approved' | 'denied' | 'expired';
  decidedAt?: number;
  reason?: string;
}

export interface RecoveryEntryView {
  manifestPath: string;
  transactionId?: string;
  workspaceRoot?: string;
  formatVersion: number | null;
  outcome: 'completed' | 'reverted' | 'unsupported' | 'clean' | 'failed';
  files: number;
  detail: string;
  at: number;
}

export interface RecoveryView {
  stateDir: string;
  healthy: boolean;
  owner?: { instanceId: string; pid: number; startedAt: number };
  entries: RecoveryEntryView[];
  /** Guidance for the operator when evidence could not be processed. */
  guidance?: string;
}

export interface BridgeView {
  running: boolean;
  host: string;
  port: number;
  hubUrl: string;
  mcpUrl: string;
  apiUrl: string;
  transports: Array<'streamable-http' | 'stdio'>;
  /** Exact configuration snippets operators paste into MCP clients. */
  snippets: Array<{ client: string; format: 'json' | 'shell'; text: string }>;
  /** `single`: one editor and one runtime in all; `multi`: one of each per project, agents choose the project. */
  projectRouting?: ProjectRouting;
  /** Pinned endpoints per live project with a path hash (multi-project routing only). */
  projects?: ProjectEndpointView[];
}

export interface ControlSnapshot {
  version: string;
  plugins: PluginView[];
  calls: CallView[];
  workspaces: WorkspaceView[];
  approvals: ApprovalView[];
  recovery: RecoveryView;
  bridge: BridgeView;
  metrics?: MetricsView;
  /** Connected agents; absent from older cores. */
  agents?: AgentView[];
}

export type ControlEvent =
  | { type: 'plugin.connected'; plugin: PluginView }
  | { type: 'plugin.updated'; plugin: PluginView }
  | { type: 'plugin.disconnected'; connectionId: string }
  | { type: 'call.started'; call: CallView }
  | { type: 'call.progress'; callId: string; progress: NonNullable<CallView['progress']> }
  | { type: 'call.finished'; call: CallView }
  | { type: 'workspace.updated'; workspace: WorkspaceView }
  | { type: 'approval.requested'; approval: ApprovalView }
  | { type: 'approval.decided'; approval: ApprovalView }
  | { type: 'recovery.state'; recovery: RecoveryView }
  | { type: 'bridge.state'; bridge: BridgeView }
  | { type: 'metrics.updated'; metrics: MetricsView }
  | { type: 'agents.changed'; agents: AgentView[] };

export type ControlResult<T> = { ok: true; value: T } | { ok: false; error: StructuredError };

export interface ControlApi {
  snapshot(): Promise<ControlSnapshot>;
  callDetail(callId: string): Promise<CallDetail>;
  approve(approvalId: string): Promise<ApprovalView>;
  deny(approvalId: string, reason: string): Promise<ApprovalView>;
  openWorkspace(root: string, options: { trusted: boolean }): Promise<WorkspaceView>;
  rollback(workspaceId: string, toRevision: number): Promise<WorkspaceView>;
  startBridge(): Promise<BridgeView>;
  stopBridge(): Promise<BridgeView>;
  /** Switches project routing; every plugin is asked to reconnect so it is grouped afresh. */
  setProjectRouting(mode: ProjectRouting): Promise<BridgeView>;
  recover(): Promise<RecoveryView>;
  tools(): Promise<ToolCatalogueEntry[]>;
  pluginDetail(connectionId: string): Promise<PluginDetailView>;
  /** Runs a tool as the agent `console`, through the same dispatcher as every agent call. */
  runTool(name: string, args: Record<string, unknown>): Promise<RunToolResult>;
  settings(): Promise<SettingsView>;
  updateSetting(key: string, value: string | number): Promise<SettingsView>;
  /** Subscribes to events after the snapshot; the adapter guarantees no gap between the two. */
  subscribe(listener: (event: ControlEvent) => void): () => void;
}

/** Every event carries a strictly increasing sequence number; a snapshot names the last sequence it includes. */
export interface SequencedEvent {
  seq: number;
  event: ControlEvent;
}

/**
 * What a console client receives: first one `snapshot`, then `event`s with seq > snapshot.seq, in order.
 * A later `snapshot` (a resync) replaces all state and restarts the sequence check.
 */
export type ControlFrame =
  | { type: 'snapshot'; seq: number; snapshot: ControlSnapshot }
  | { type: 'event'; seq: number; event: ControlEvent };

/**
 * Consecutive events in one message: `events[i]` has sequence `fromSeq + i`. It means exactly the `event`
 * frames it stands for; the WebSocket transport sends these so a burst costs one message, not one per event.
 */
export interface EventBatchFrame {
  type: 'events';
  fromSeq: number;
  events: ControlEvent[];
}

/** Any frame a channel may deliver: the single-event form stays valid beside batches. */
export type ControlWireFrame = ControlFrame | EventBatchFrame;

/** Commands a console client may invoke over any transport, with their wire arguments and results. */
export interface ControlCommands {
  snapshot: { args: Record<string, never>; result: ControlSnapshot };
  callDetail: { args: { callId: string }; result: CallDetail };
  approve: { args: { approvalId: string }; result: ApprovalView };
  deny: { args: { approvalId: string; reason: string }; result: ApprovalView };
  openWorkspace: { args: { root: string; trusted: boolean }; result: WorkspaceView };
  rollback: { args: { workspaceId: string; toRevision: number }; result: WorkspaceView };
  startBridge: { args: Record<string, never>; result: BridgeView };
  stopBridge: { args: Record<string, never>; result: BridgeView };
  setProjectRouting: { args: { mode: ProjectRouting }; result: BridgeView };
  recover: { args: Record<string, never>; result: RecoveryView };
  tools: { args: Record<string, never>; result: ToolCatalogueEntry[] };
  pluginDetail: { args: { connectionId: string }; result: PluginDetailView };
  runTool: { args: { name: string; args: Record<string, unknown> }; result: RunToolResult };
  settings: { args: Record<string, never>; result: SettingsView };
  updateSetting: { args: { key: string; value: string | number }; result: SettingsView };
}

export type ControlCommandName = keyof ControlCommands;

/** WebSocket request `{ id, command, args }` and its reply `{ id, result }`. */
export interface ControlRequestMessage {
  id: number | string;
  command: string;
  args?: unknown;
}

export interface ControlReplyMessage {
  id: number | string | null;
  result: ControlResult<unknown>;
}

/**
 * The transport-neutral door the renderer talks to: `window.junction` in Electron (preload) and the
 * WebSocket client in a browser both implement it.
 */
export interface ControlChannel {
  invoke<C extends ControlCommandName>(command: C, args: ControlCommands[C]['args']): Promise<ControlResult<ControlCommands[C]['result']>>;
  /** Starts the frame stream (snapshot first); returns an unsubscribe function. */
  onFrame(listener: (frame: ControlWireFrame) => void): () => void;
}
