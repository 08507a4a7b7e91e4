/**
 * The one table of console commands. Each command is declared here once: its name, the zod schema of
 * what the console sends, and (as a type only) what it answers. Everything else is inferred from this
 * table: the renderer's `ControlApi` and `ControlCommands`, the handlers the server must implement
 * (`ControlCommandHandlers`: a command without one fails to compile where the handlers are assembled),
 * and the run-time validation both transports (WebSocket and Electron IPC) apply before a handler runs.
 */
import { z } from 'zod';
import type {
  AgentCatalogueView,
  AlwaysAllowPreview,
  ApprovalView,
  BridgeView,
  CallApprovalArgumentsView,
  CallApprovalView,
  CallDecisionRequest,
  CallDetail,
  ControlEvent,
  ControlResult,
  ControlSnapshot,
  ControlWireFrame,
  ElicitationAnswerInput,
  ElicitationsView,
  HistoryPage,
  HistoryQuery,
  PluginDetailView,
  PolicyView,
  RecoveryView,
  ReplayResult,
  RunToolResult,
  SamplingAnswerInput,
  SessionGrantView,
  SettingsView,
  ToolCatalogueEntry,
  TransactionHistoryPage,
  WorkspaceView,
} from './console.js';

declare const RESULT: unique symbol;

/** A command's result type, carried by the table as a type only (the value is an empty object). */
export interface Returns<Result> {
  readonly [RESULT]?: Result;
}

export function returns<Result>(): Returns<Result> {
  return {};
}

export interface ConsoleCommandSpec<Input extends z.ZodType = z.ZodType, Result = unknown> {
  /** What the console sends; validated before any handler runs (unknown keys are refused). */
  input: Input;
  result: Returns<Result>;
}

const id = z.string().min(1).max(512);
const none = z.object({}).strict();
const reason = z.string().trim().min(1).max(4096);

export const CONSOLE_COMMANDS = {
  snapshot: { input: none, result: returns<ControlSnapshot>() },
  callDetail: { input: z.object({ callId: id }).strict(), result: returns<CallDetail>() },
  approve: { input: z.object({ approvalId: id }).strict(), result: returns<ApprovalView>() },
  deny: { input: z.object({ approvalId: id, reason }).strict(), result: returns<ApprovalView>() },
  openWorkspace: { input: z.object({ root: z.string().min(1).max(4096), trusted: z.boolean() }).strict(), result: returns<WorkspaceView>() },
  rollback: { input: z.object({ workspaceId: id, toRevision: z.number().int().min(0) }).strict(), result: returns<WorkspaceView>() },
  startBridge: { input: none, result: returns<BridgeView>() },
  stopBridge: { input: none, result: returns<BridgeView>() },
  /** Every plugin is asked to reconnect so it is grouped afresh. */
  setProjectRouting: { input: z.object({ mode: z.enum(['single', 'multi']) }).strict(), result: returns<BridgeView>() },
  recover: { input: none, result: returns<RecoveryView>() },
  tools: { input: none, result: returns<ToolCatalogueEntry[]>() },
  pluginDetail: { input: z.object({ connectionId: id }).strict(), result: returns<PluginDetailView>() },
  /** Runs a tool as the agent `console`, through the same dispatcher as every agent call. */
  runTool: { input: z.object({ name: z.string().min(1).max(256), args: z.record(z.string(), z.unknown()) }).strict(), result: returns<RunToolResult>() },
  settings: { input: none, result: returns<SettingsView>() },
  updateSetting: { input: z.object({ key: z.string().min(1).max(128), value: z.union([z.string().max(4096), z.number()]) }).strict(), result: returns<SettingsView>() },
  /** Answers a pending elicitation from the console; the answer must satisfy its schema. */
  answerElicitation: {
    input: z
      .object({
        elicitationId: id,
        action: z.enum(['accept', 'decline', 'cancel']),
        content: z.record(z.string().max(256), z.union([z.string().max(65_536), z.number(), z.boolean(), z.array(z.string().max(4096)).max(256)])).optional(),
      })
      .strict() satisfies z.ZodType<{ elicitationId: string } & ElicitationAnswerInput>,
    result: returns<ElicitationsView>(),
  },
  /** Replies to a pending sampling request as the model, or declines it (the tool's sample() then rejects). */
  answerSampling: {
    input: z
      .object({ samplingId: id, action: z.enum(['accept', 'decline']), text: z.string().max(1_000_000).optional(), model: z.string().min(1).max(256).optional() })
      .strict()
      .refine((a) => a.action === 'decline' || (a.text !== undefined && a.text.trim() !== ''), { message: 'a reply needs its text', path: ['text'] }) satisfies z.ZodType<{ samplingId: string } & SamplingAnswerInput>,
    result: returns<ElicitationsView>(),
  },
  /** Who answers elicitations from now on: the calling agent, or the operator in the console. */
  setElicitationAnswerer: { input: z.object({ answerer: z.enum(['agent', 'console']) }).strict(), result: returns<ElicitationsView>() },
  /** Decides a held call; `digest` must be the one the operator was shown. */
  decideCall: {
    input: z
      .object({ askId: id, digest: z.string().regex(/^[0-9a-f]{64}$/), decision: z.enum(['allow-once', 'allow-session', 'always', 'deny']), reason: reason.optional() })
      .strict()
      .refine((a) => a.decision !== 'deny' || a.reason !== undefined, { message: 'a denial needs a reason', path: ['reason'] }) satisfies z.ZodType<CallDecisionRequest>,
    result: returns<CallApprovalView>(),
  },
  /** The complete arguments of a held call (its view carries a bounded preview of large ones). */
  callApprovalArguments: { input: z.object({ askId: id }).strict(), result: returns<CallApprovalArgumentsView>() },
  /** The rule "always allow" would write for a held call (that tool, that agent), and what the policy would report after it. */
  previewAlwaysAllow: { input: z.object({ askId: id }).strict(), result: returns<AlwaysAllowPreview>() },
  /** Takes out the rule an "always allow" wrote at policy `version` (found by content, wherever it moved); Conflict when it is gone. */
  undoAlwaysAllow: { input: z.object({ version: z.number().int().min(1) }).strict(), result: returns<PolicyView>() },
  /** Every "allow for this session" grant in force. */
  sessionGrants: { input: none, result: returns<SessionGrantView[]>() },
  /** Revokes one grant; later calls of that session are asked again. Answers the grants left. */
  revokeSessionGrant: { input: z.object({ grantId: id }).strict(), result: returns<SessionGrantView[]>() },
  /** Decided held calls in the order they were decided (oldest first), with their arguments and call ids; the last `limit`. */
  decisionLog: { input: z.object({ limit: z.number().int().min(0).max(1000).default(200) }).strict(), result: returns<CallApprovalView[]>() },
  /** Replaces the approval policy with `text` (JSON) when `baseVersion` is still current; saved atomically. */
  // The text stays below the console socket's 1 MiB message cap, wrapper included.
  savePolicy: { input: z.object({ text: z.string().max(900_000), baseVersion: z.number().int().min(1) }).strict(), result: returns<PolicyView>() },
  /**
   * A tool's "agents see this" switch: off writes a hide rule for exactly that tool first in the policy,
   * on takes that rule out; saved atomically, refused with Conflict when the policy or its file changed since `baseVersion`.
   */
  setToolVisible: { input: z.object({ tool: z.string().min(1).max(256), visible: z.boolean(), baseVersion: z.number().int().min(1) }).strict(), result: returns<PolicyView>() },
  /** The catalogue one agent sees (`agentName` as its client names itself, `http` for /api), on a pinned route with `pin`. */
  agentCatalogue: {
    input: z
      .object({ agentName: z.string().min(1).max(256), pin: z.string().regex(/^[0-9a-f]{1,64}$/i).transform((p) => p.toLowerCase()).optional(), sessionId: id.optional() })
      .strict(),
    result: returns<AgentCatalogueView>(),
  },
  history: {
    input: z
      .object({
        text: z.string().max(256).optional(),
        status: z.enum(['running', 'ok', 'error']).optional(),
        tool: z.string().max(512).optional(),
        agent: z.string().max(512).optional(),
        since: z.number().int().optional(),
        until: z.number().int().optional(),
        before: z.number().int().min(0).optional(),
        limit: z.number().int().min(0).max(1000).optional(),
      })
      .strict() satisfies z.ZodType<HistoryQuery>,
    result: returns<HistoryPage>(),
  },
  transactionHistory: { input: z.object({ limit: z.number().int().min(0).max(500).default(50) }).strict(), result: returns<TransactionHistoryPage>() },
  /** Runs a recorded call again, through the current policy; it appears as a new call linked to the original. */
  replay: { input: z.object({ callId: id }).strict(), result: returns<ReplayResult>() },
} satisfies Record<string, ConsoleCommandSpec>;

export type ControlCommandName = keyof typeof CONSOLE_COMMANDS;
type Spec<C extends ControlCommandName> = (typeof CONSOLE_COMMANDS)[C];
/** What the console sends for a command (before defaults are applied). */
export type ControlCommandInput<C extends ControlCommandName> = z.input<Spec<C>['input']>;
/** What a handler receives: the input after validation, defaults applied and strings trimmed. */
export type ControlCommandArgs<C extends ControlCommandName> = z.output<Spec<C>['input']>;
export type ControlCommandResult<C extends ControlCommandName> = Spec<C>['result'] extends Returns<infer R> ? R : never;

/** Commands with their wire arguments and results, as a console channel carries them. */
export type ControlCommands = { [C in ControlCommandName]: { args: ControlCommandInput<C>; result: ControlCommandResult<C> } };

/** The server side of a command: receives validated arguments; a thrown JunctionError is its structured answer. */
export type ControlCommandHandler<C extends ControlCommandName> = (args: ControlCommandArgs<C>) => ControlCommandResult<C> | Promise<ControlCommandResult<C>>;

/** Handlers for the commands `C` (all of them by default). */
export type ControlCommandHandlers<C extends ControlCommandName = ControlCommandName> = { [K in C]: ControlCommandHandler<K> };

/** A command the console may send without arguments takes them as optional. */
type ApiMethod<C extends ControlCommandName> = Record<string, never> extends ControlCommandInput<C>
  ? (args?: ControlCommandInput<C>) => Promise<ControlCommandResult<C>>
  : (args: ControlCommandInput<C>) => Promise<ControlCommandResult<C>>;

/** The console's typed interface: one method per command, plus the event stream. */
export type ControlApi = { [C in ControlCommandName]: ApiMethod<C> } & {
  /** Subscribes to events after the snapshot; the adapter guarantees no gap between the two. */
  subscribe(listener: (event: ControlEvent) => void): () => void;
};

/**
 * The transport-neutral door the renderer talks to: `window.junction` in Electron (preload) and the
 * WebSocket client in a browser both implement it.
 */
export interface ControlChannel {
  invoke<C extends ControlCommandName>(command: C, args: ControlCommands[C]['args']): Promise<ControlResult<ControlCommands[C]['result']>>;
  /** Starts the frame stream (snapshot first); returns an unsubscribe function. */
  onFrame(listener: (frame: ControlWireFrame) => void): () => void;
}

export const CONTROL_COMMAND_NAMES = Object.keys(CONSOLE_COMMANDS) as ControlCommandName[];

export function isControlCommandName(name: unknown): name is ControlCommandName {
  return typeof name === 'string' && Object.hasOwn(CONSOLE_COMMANDS, name);
}
