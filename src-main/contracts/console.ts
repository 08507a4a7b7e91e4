/**
 * The console's one typed interface: commands it may issue and the events it observes.
 * Electron IPC and the browser WebSocket both carry exactly these shapes; the renderer never knows which.
 * Additive only: new fields and event types may appear, existing ones keep their meaning.
 */
import type { StructuredError } from './errors.js';

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
  /** State `awaited`: when its connection was lost (epoch ms). */
  disconnectedAt?: number;
  /** State `awaited`: why the connection ended, when the bridge knows (`connection closed: …`). */
  lostReason?: string;
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
  transport: 'mcp-http' | 'mcp-stdio' | 'http-api' | 'console';
  clientName?: string;
  clientVersion?: string;
  /** The project pin of the route the agent uses. */
  pin?: string;
  /** The project key the agent's calls currently go to (multi-project routing), if any. */
  projectKey?: string;
  /** When the session opened (MCP `initialized`) or the HTTP caller made its first call (epoch ms). */
  connectedAt: number;
  /** The MCP revision the agent speaks (negotiated by a session, named by each stateless request), where known. */
  protocolVersion?: string;
  /** For an agent without a session (direct API callers, stateless MCP agents): the agent label its calls carry. */
  callLabel?: string;
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
  /** Every client's setup for this project's pinned route, as BridgeView.snippets has them unpinned. */
  snippets?: ClientSnippetView[];
}

/** One MCP client's configuration for Junction, exactly as that client reads it. */
export interface ClientSnippetView {
  /** Unique within its list: the client, and the file or command form and transport when it has several. */
  client: string;
  format: 'json' | 'shell';
  text: string;
  /** How the client reaches Junction with it. */
  transport?: 'stdio' | 'streamable-http' | 'http-api';
  /** Where it goes: the file it belongs in, or where to run it. */
  target?: string;
  /** The client's own documentation of this format. */
  docs?: string;
}

export type CallStatus = 'running' | 'ok' | 'error';

export interface CallView {
  callId: string;
  agent: string;
  /** `console` for calls the operator ran or replayed from the console. */
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
  /** Elicitation and sampling requests made while serving the call, oldest first (capped). */
  nested?: NestedRequestView[];
  /** How the approval policy decided this call; present on finished calls that reached the policy. */
  policy?: PolicyDecisionView;
  /** The recorded call this one replays. */
  replayOf?: string;
  /** The MCP session the call came over (absent for direct HTTP and console calls): tells sessions of one client apart. */
  sessionId?: string;
  /**
   * The W3C trace context (`traceparent`, version 00, validated) the agent sent with the call, passed on
   * to the plugin and kept in the trail, so one request can be followed across agent, Junction and editor.
   */
  traceparent?: string;
  /** The MCP task (tasks extension) the agent followed this call as, once it went long. */
  taskId?: string;
}

/** A request a tool made of the calling agent while serving a call (elicitation, sampling, roots), for the call trace. */
export interface NestedRequestView {
  callId: string;
  nestedId: string;
  kind: 'elicitation' | 'sampling' | 'roots';
  status: 'pending' | 'ok' | 'error';
  startedAt: number;
  durationMs?: number;
  /** The elicitation message, the last sampling message's text or `roots/list`, capped. */
  summary: string;
  /** `accept`/`decline`/`cancel` for an elicitation, the model for sampling, the number of roots. */
  outcome?: string;
  errorCode?: string;
}

export type ElicitationAnswerer = 'agent' | 'console';

/** An elicitation waiting for the operator (answerer `console`). */
export interface PendingElicitationView {
  elicitationId: string;
  callId: string;
  tool: string;
  agent: string;
  message: string;
  /** The flat MCP form schema the answer must satisfy. */
  requestedSchema: Record<string, unknown>;
  createdAt: number;
  /** When the request is withdrawn unanswered (its call's deadline), when there is one. */
  expiresAt?: number;
}

export interface ElicitationsView {
  answerer: ElicitationAnswerer;
  pending: PendingElicitationView[];
  /** Sampling requests waiting for the operator (answerer `console` answers those too). */
  sampling: PendingSamplingView[];
}

/** A tool's `sampling/createMessage` waiting for the operator to reply as the model (answerer `console`). */
export interface PendingSamplingView {
  samplingId: string;
  callId: string;
  tool: string;
  agent: string;
  /** The MCP sampling messages, as the tool sent them. */
  messages: Array<{ role: string; content: unknown }>;
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: string;
  createdAt: number;
}

/** The operator's reply to a sampling request: text as the model (`accept`) or a refusal. */
export interface SamplingAnswerInput {
  action: 'accept' | 'decline';
  text?: string;
  /** The model name the tool is told; `operator` when absent. */
  model?: string;
}

export interface ElicitationAnswerInput {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

export interface ServedByView {
  connectionId: string;
  name: string;
  role: PluginRole;
  pluginVersion?: string;
}

/**
 * Last-minute call statistics, computed on the server from the call stream (one point per second).
 * Three outcomes are kept apart: a call waiting for the operator is `held` (not in flight), a call the
 * policy or the operator refused is `refused` (it never ran: no error, no latency), and only a call that
 * ran and failed is an error. Latency is execution time: the operator's wait is not in it.
 */
export interface MetricsView {
  at: number;
  windowSeconds: number;
  callsPerSecond: number;
  /** Failed calls / finished calls that ran over the window (0 when none ran). */
  errorRatio: number;
  /** Calls refused over the window (the policy, the operator, the approval timeout). */
  refused: number;
  /** Execution time of the calls that ran (the wait for the operator left out). */
  p50Ms?: number;
  p99Ms?: number;
  /** Calls running now; held ones are not among them. */
  inFlight: number;
  /** Calls waiting for the operator now. */
  held: number;
  /** Agents that finished a call in the window. */
  activeAgents: string[];
  /** Oldest second first; latency points are null for seconds without calls. */
  series: { calls: number[]; errors: number[]; refused: number[]; p50Ms: Array<number | null>; p99Ms: Array<number | null> };
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

/** Exactly the tools one agent sees: its client name, the route's pin and its session's project selection applied, as tools/list answers it. */
export interface AgentCatalogueView {
  agentName: string;
  pin?: string;
  sessionId?: string;
  tools: Array<{ name: string; source: string }>;
}

export interface PluginTimelineEntry {
  at: number;
  /** `notice`: a notice about the plugin was raised (a message over the hub's limit, one it sent itself…). */
  kind: 'connected' | 'reconnected' | 'updated' | 'disconnected' | 'notice';
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
  /** JSON pointers into `{ arguments, result }` whose values were redacted (shown as `[redacted]`), when known. */
  redacted?: string[];
  /** The policy decision recorded with the call, when a policy decided it. */
  policy?: unknown;
}

/** Server-side search over the audit trail: newest first, paged by the `nextBefore` cursor. */
export interface HistoryQuery {
  text?: string;
  status?: CallStatus;
  tool?: string;
  agent?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  before?: number;
  limit?: number;
}

/** Whether the audit trail can answer a history question now, and why not. */
export interface HistoryAvailability {
  /** False when the audit trail is off or unavailable; `reason` says why. */
  available: boolean;
  reason?: string;
  /** Present while the audit trail upgrades recorded history (history is unavailable until it ends). */
  upgrade?: { startedAt: number; calls?: number; /** Share indexed so far, 0 to 1. */ done?: number };
}

export interface HistoryPage extends HistoryAvailability {
  calls: CallView[];
  nextBefore?: number;
}

/** The most recent ended transactions, newest first, when the audit trail can tell them. */
export interface TransactionHistoryPage extends HistoryAvailability {
  transactions: TransactionRecordView[];
}

/** A transaction that ended, as the audit trail remembers it. */
export interface TransactionRecordView {
  transactionId: string;
  workspaceId: string | null;
  workspaceName: string | null;
  state: 'committed' | 'rolledBack';
  endedAt: number;
  revisions: RevisionView[];
  /** What the commit returned: manifest id and per-file checksums; absent for rollbacks. */
  commit?: unknown;
  /** The review receipt the commit presented, when there was one. */
  receipt?: string;
  approvals: Array<{ revision: number; state: ApprovalView['state']; decidedAt?: number; reason?: string; requestedBy?: ApprovalRequesterView }>;
}

export interface ReplayResult {
  replayOf: string;
  isError: boolean;
  result: unknown;
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
  /** Compiler diagnostics the transaction adds or removes in its changed files and their importers, computed at review time. */
  compile?: CompileCheckView;
  /** The agent whose transaction-review call raised the request. */
  requestedBy?: ApprovalRequesterView;
}

/** Who asked for a commit approval: the calling agent as the console's call rows name it. */
export interface ApprovalRequesterView {
  /** The agent label of the call (client name/version and session or address), as in `CallView.agent`. */
  agent: string;
  /** The MCP client's name, `http` for direct HTTP calls. */
  agentName: string;
  transport: CallView['transport'];
  /** The MCP session id; absent for direct HTTP calls. */
  sessionId?: string;
}

export interface CompileCheckView {
  /** Added diagnostics, at most `limit` of them; `addedCount` is the full number. */
  added: DiagnosticView[];
  addedCount: number;
  removedCount: number;
  /** Errors among the added diagnostics. */
  errorsAdded: number;
  /** Files checked: the changed files and the files that import them. */
  checkedFiles: number;
}

export type PolicyAction = 'allow' | 'ask' | 'deny';

/**
 * What a visibility rule says about a tool when a catalogue is listed for an agent session: `hide` takes
 * it out of that agent's catalogue (calling it answers as an unknown tool does), `show` keeps it in.
 */
export type VisibilityAction = 'hide' | 'show';

export type PolicyRuleAction = PolicyAction | VisibilityAction;

/**
 * The operand of each kind of argument matcher. The policy engine's table of kinds is keyed by this
 * type, so a kind added here does not compile until the engine can judge it.
 */
export interface PolicyMatcherOperands {
  equals: unknown;
  /** RE2 syntax (linear time). */
  regex: string;
  exists: boolean;
  greaterThan: number;
}

export type PolicyMatcherKind = keyof PolicyMatcherOperands;

/** Tests one argument, found by JSON pointer (RFC 6901); exactly one kind's operand is given. */
export type PolicyArgumentMatcher = { pointer: string } & { [K in PolicyMatcherKind]?: PolicyMatcherOperands[K] };

/** One rule of the approval policy: every given matcher must hold; the first matching rule decides. */
export interface PolicyRule {
  tool?: string;
  source?: 'host' | 'plugin' | 'bridge';
  plugin?: string;
  project?: string;
  role?: PluginRole;
  agent?: string;
  annotations?: { destructiveHint?: boolean; readOnlyHint?: boolean; openWorldHint?: boolean; idempotentHint?: boolean };
  arguments?: PolicyArgumentMatcher[];
  /** allow/ask/deny judge calls; hide/show judge listings (visibility rules take no `arguments`). */
  action: PolicyRuleAction;
  reason?: string;
}

export interface PolicyDocument {
  rules: PolicyRule[];
}

export interface PolicyView {
  /** The file named by `approval-policy`; null when none is configured (then everything is allowed and nothing can be saved). */
  path: string | null;
  /** Bumps on every change; decisions are bound to the version they were asked under. */
  version: number;
  document: PolicyDocument;
  updatedAt: number;
  /** The file was edited outside Junction and that edit could not be loaded (why); the policy shown stays in force and saves are refused until the file is fixed. */
  fileProblem?: string;
  /** Rules that can never decide a call, because an earlier rule matches every call they match. */
  findings: PolicyFinding[];
}

/** A rule that never decides a call: `shadowed` (an earlier rule with another action decides instead) or `redundant` (same action). */
export interface PolicyFinding {
  ruleIndex: number;
  kind: 'shadowed' | 'redundant';
  byRule: number;
  message: string;
}

/** The exact rule "always allow" would write for a held call, and where. */
export interface AlwaysAllowPreview {
  askId: string;
  rule: PolicyRule;
  /** The index it would take: just before the ask rule that holds the call. */
  ruleIndex: number;
  /** What the policy would report after the change (a rule it would make dead shows here). */
  findings: PolicyFinding[];
}

/** An "allow for this session" grant: later calls of the tool in that session, held by that rule, to that plugin, pass. */
export interface SessionGrantView {
  grantId: string;
  session: string;
  agent: string;
  tool: string;
  rule: PolicyRule;
  target: string;
  grantedAt: number;
  /** The held call whose decision made it. */
  callId: string;
}

export interface PolicyChangeView {
  /** `reloaded`: the file was edited outside Junction and the edit loaded; `undone`: an always-allow rule was taken out again. */
  /** `visibility`: the operator switched a tool's "agents see this" (rule = the hide rule written or removed). */
  kind: 'edited' | 'always-allow' | 'reloaded' | 'undone' | 'visibility';
  by: 'operator' | 'file';
  previousVersion: number;
  version: number;
  at: number;
  /** For always-allow: where the new rule was inserted; for undone: where it was removed from. */
  ruleIndex?: number;
  /** For always-allow, undone and visibility: the rule written or removed. */
  rule?: PolicyRule;
}

export type PolicyDecisionKind = 'allow-once' | 'allow-session' | 'always' | 'deny';

/** The policy's verdict on one call, as data for the console and the audit trail. */
export interface PolicyDecisionView {
  /** What the matching rule said (allow when none matched). */
  action: PolicyAction;
  ruleIndex: number | null;
  /** Why the rule matched, in words. */
  reason: string;
  /** `cancelled`: the agent gave up (or its session closed) while the call waited. */
  decidedBy: 'policy' | 'operator' | 'timeout' | 'cancelled';
  decision: PolicyDecisionKind;
  policyVersion: number;
  /** Present when the call was held for the operator. */
  askId?: string;
  /** The operator's reason for a denial. */
  operatorReason?: string;
  /** How long the call waited for the operator (ms); present when it was held. */
  heldMs?: number;
}

/** The complete arguments of one held call, fetched on demand. */
export interface CallApprovalArgumentsView {
  askId: string;
  arguments: Record<string, unknown>;
  argumentBytes: number;
}

/** A tool call held by an `ask` rule until the operator decides. */
export interface CallApprovalView {
  askId: string;
  callId: string;
  /** Binds a decision to agent session + tool + canonical arguments + policy version; a decision must quote it. */
  digest: string;
  policyVersion: number;
  tool: string;
  description?: string;
  annotations?: Record<string, unknown>;
  agent: string;
  agentName: string;
  transport: CallView['transport'];
  /** Where the call goes: `host`, `plugin:<id>`, `bridge:<role> <name>`; the decision is bound to it. */
  target: string;
  /** The target changed while the call waited (a new plugin took the slot): the call is asked again, bound to `to`. */
  targetChange?: { from: string; to: string; at: number };
  /** The arguments the call will run with: whole up to 16 KiB, else a JSON text preview (`argumentsTruncated`; a held call's are fetched whole with `callApprovalArguments`). */
  arguments: unknown;
  argumentsTruncated?: boolean;
  /** UTF-8 bytes of the canonical arguments JSON. */
  argumentBytes: number;
  ruleIndex: number;
  reason: string;
  requestedAt: number;
  expiresAt: number;
  state: 'pending' | 'allowed' | 'denied' | 'timedOut' | 'cancelled';
  decision?: PolicyDecisionKind;
  /** Who ended the wait: the operator, the policy (changed while the call waited), the timeout, or the agent giving up. */
  decidedBy?: PolicyDecisionView['decidedBy'];
  decidedAt?: number;
  operatorReason?: string;
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
  snippets: ClientSnippetView[];
  /** `single`: one editor and one runtime in all; `multi`: one of each per project, agents choose the project. */
  projectRouting?: ProjectRouting;
  /** Pinned endpoints per live project with a path hash (multi-project routing only). */
  projects?: ProjectEndpointView[];
}

/** What a notice is about, so the console can name it and link to it (a plugin's row, a call's detail…). */
export interface NoticeSubject {
  kind: 'plugin' | 'call' | 'policy' | 'audit' | 'bridge' | 'transaction' | 'elicitation' | 'agent';
  /** The subject's own id (connection id, call id, rule index…), for the link. */
  id: string;
  /** What the operator reads: "plugin demo-scene-editor", "call 0192…". */
  label: string;
}

/** A message for the operator raised by the server or by a plugin; the console shows it until it expires. */
export interface OperatorNotice {
  id: string;
  level: 'info' | 'warning' | 'error';
  title: string;
  message: string;
  subject: NoticeSubject;
  at: number;
  /**
   * How long the console keeps it on screen (ms); absent: the console's default for its level. A notice
   * with a lifetime of its own also stands that long in the snapshot, so a console opened later shows it.
   */
  ttlMs?: number;
}

export interface ControlSnapshot {
  version: string;
  plugins: PluginView[];
  calls: CallView[];
  workspaces: WorkspaceView[];
  approvals: ApprovalView[];
  recovery: RecoveryView;
  bridge: BridgeView;
  metrics: MetricsView;
  /** Absent when the composition has no elicitation queue (tests of other rooms). */
  elicitations?: ElicitationsView;
  /** Pending and recently decided call approvals (empty without an approval policy). */
  callApprovals: CallApprovalView[];
  policy?: PolicyView;
  /** Connected agents. */
  agents: AgentView[];
  /** Plugin connections that ended, newest first, so a console opened later still sees who held a slot and why it went. */
  departedPlugins?: DepartedPluginView[];
  /** Notices raised with a lifetime of their own (`ttlMs`) that has not run out, oldest first. */
  notices: OperatorNotice[];
}

/** A plugin connection that ended, as the server last saw it. */
export interface DepartedPluginView {
  plugin: PluginView;
  /** When it was last seen: its disconnect, else when the server learnt it was gone (epoch ms). */
  at: number;
  reason?: string;
  replacedBy?: string;
}

export type ControlEvent =
  | { type: 'plugin.connected'; plugin: PluginView }
  | { type: 'plugin.updated'; plugin: PluginView }
  /** `reason`: why it left (when the bridge knows); `replacedBy`: the connection that took its slot. */
  | { type: 'plugin.disconnected'; connectionId: string; reason?: string; replacedBy?: string }
  | { type: 'call.started'; call: CallView }
  | { type: 'call.progress'; callId: string; progress: NonNullable<CallView['progress']> }
  | { type: 'call.finished'; call: CallView }
  | { type: 'call.nested'; nested: NestedRequestView }
  | { type: 'elicitation.pending'; elicitation: PendingElicitationView }
  | { type: 'elicitation.resolved'; elicitationId: string }
  | { type: 'elicitation.answerer'; answerer: ElicitationAnswerer }
  | { type: 'sampling.pending'; sampling: PendingSamplingView }
  | { type: 'sampling.resolved'; samplingId: string }
  | { type: 'workspace.updated'; workspace: WorkspaceView }
  | { type: 'approval.requested'; approval: ApprovalView }
  | { type: 'approval.decided'; approval: ApprovalView }
  | { type: 'recovery.state'; recovery: RecoveryView }
  | { type: 'bridge.state'; bridge: BridgeView }
  | { type: 'metrics.updated'; metrics: MetricsView }
  | { type: 'callApproval.requested'; approval: CallApprovalView }
  | { type: 'callApproval.decided'; approval: CallApprovalView }
  | { type: 'policy.updated'; policy: PolicyView; change: PolicyChangeView }
  | { type: 'agents.changed'; agents: AgentView[] }
  | { type: 'notice.raised'; notice: OperatorNotice };

export type ControlResult<T> = { ok: true; value: T } | { ok: false; error: StructuredError };

export interface CallDecisionRequest {
  askId: string;
  digest: string;
  decision: PolicyDecisionKind;
  /** Required for deny. */
  reason?: string;
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

/**
 * More of the call log of the snapshot with sequence `seq`: calls older than every call the snapshot and
 * its earlier parts carried, oldest first. Both transports send a long log this way, right after the
 * snapshot and before any event, so no single message costs the page a long parse. A client applies a
 * part only while `seq` is still its current snapshot's and no event has followed it.
 */
export interface SnapshotCallsFrame {
  type: 'snapshotCalls';
  seq: number;
  calls: CallView[];
}

/** Any frame a channel may deliver: the single-event form stays valid beside batches, a whole snapshot beside a split one. */
export type ControlWireFrame = ControlFrame | EventBatchFrame | SnapshotCallsFrame;

/** The WebSocket reply `{ id, result }` to a request `{ id, command, args }`. */
export interface ControlReplyMessage {
  id: number | string | null;
  result: ControlResult<unknown>;
}
