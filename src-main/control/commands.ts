/**
 * Wire validation and dispatch of console commands: every transport hands the raw `{ command, args }`
 * here and gets a ControlResult back, never a thrown error.
 */
import { z } from 'zod';
import { JunctionError, next, toStructuredError } from '../contracts/index.js';
import type { ControlApi, ControlCommandName, ControlResult } from '../contracts/index.js';

const id = z.string().min(1).max(512);
const none = z.object({}).strict().optional();

export const COMMAND_SCHEMAS = {
  snapshot: none,
  callDetail: z.object({ callId: id }).strict(),
  approve: z.object({ approvalId: id }).strict(),
  deny: z.object({ approvalId: id, reason: z.string().trim().min(1).max(4096) }).strict(),
  openWorkspace: z.object({ root: z.string().min(1).max(4096), trusted: z.boolean() }).strict(),
  rollback: z.object({ workspaceId: id, toRevision: z.number().int().min(0) }).strict(),
  startBridge: none,
  stopBridge: none,
  setProjectRouting: z.object({ mode: z.enum(['single', 'multi']) }).strict(),
  recover: none,
  tools: none,
  pluginDetail: z.object({ connectionId: id }).strict(),
  runTool: z.object({ name: z.string().min(1).max(256), args: z.record(z.string(), z.unknown()) }).strict(),
  settings: none,
  updateSetting: z.object({ key: z.string().min(1).max(128), value: z.union([z.string().max(4096), z.number()]) }).strict(),
  answerElicitation: z
    .object({
      elicitationId: id,
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string().max(256), z.union([z.string().max(65_536), z.number(), z.boolean(), z.array(z.string().max(4096)).max(256)])).optional(),
    })
    .strict(),
  setElicitationAnswerer: z.object({ answerer: z.enum(['agent', 'console']) }).strict(),
  decideCall: z
    .object({ askId: id, digest: z.string().regex(/^[0-9a-f]{64}$/), decision: z.enum(['allow-once', 'allow-session', 'always', 'deny']), reason: z.string().trim().min(1).max(4096).optional() })
    .strict()
    .refine((a) => a.decision !== 'deny' || a.reason !== undefined, { message: 'a denial needs a reason', path: ['reason'] }),
  // Below the console socket's 1 MiB message cap, wrapper included.
  savePolicy: z.object({ text: z.string().max(900_000), baseVersion: z.number().int().min(1) }).strict(),
  history: z
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
    .strict(),
  transactionHistory: z.object({ limit: z.number().int().min(0).max(500).optional() }).strict(),
  replay: z.object({ callId: id }).strict(),
} satisfies Record<ControlCommandName, z.ZodType>;

export const COMMAND_NAMES = Object.keys(COMMAND_SCHEMAS) as ControlCommandName[];

function isCommandName(name: string): name is ControlCommandName {
  return Object.hasOwn(COMMAND_SCHEMAS, name);
}

function run(api: ControlApi, command: ControlCommandName, args: unknown): Promise<unknown> {
  switch (command) {
    case 'snapshot':
      return api.snapshot();
    case 'callDetail':
      return api.callDetail(COMMAND_SCHEMAS.callDetail.parse(args).callId);
    case 'approve':
      return api.approve(COMMAND_SCHEMAS.approve.parse(args).approvalId);
    case 'deny': {
      const a = COMMAND_SCHEMAS.deny.parse(args);
      return api.deny(a.approvalId, a.reason);
    }
    case 'openWorkspace': {
      const a = COMMAND_SCHEMAS.openWorkspace.parse(args);
      return api.openWorkspace(a.root, { trusted: a.trusted });
    }
    case 'rollback': {
      const a = COMMAND_SCHEMAS.rollback.parse(args);
      return api.rollback(a.workspaceId, a.toRevision);
    }
    case 'startBridge':
      return api.startBridge();
    case 'stopBridge':
      return api.stopBridge();
    case 'setProjectRouting':
      return api.setProjectRouting(COMMAND_SCHEMAS.setProjectRouting.parse(args).mode);
    case 'recover':
      return api.recover();
    case 'tools':
      return api.tools();
    case 'pluginDetail':
      return api.pluginDetail(COMMAND_SCHEMAS.pluginDetail.parse(args).connectionId);
    case 'runTool': {
      const a = COMMAND_SCHEMAS.runTool.parse(args);
      return api.runTool(a.name, a.args);
    }
    case 'settings':
      return api.settings();
    case 'updateSetting': {
      const a = COMMAND_SCHEMAS.updateSetting.parse(args);
      return api.updateSetting(a.key, a.value);
    }
    case 'answerElicitation': {
      const { elicitationId, ...answer } = COMMAND_SCHEMAS.answerElicitation.parse(args);
      return api.answerElicitation(elicitationId, answer);
    }
    case 'setElicitationAnswerer':
      return api.setElicitationAnswerer(COMMAND_SCHEMAS.setElicitationAnswerer.parse(args).answerer);
    case 'decideCall': {
      const a = COMMAND_SCHEMAS.decideCall.parse(args);
      return api.decideCall({ askId: a.askId, digest: a.digest, decision: a.decision, ...(a.reason !== undefined ? { reason: a.reason } : {}) });
    }
    case 'savePolicy': {
      const a = COMMAND_SCHEMAS.savePolicy.parse(args);
      return api.savePolicy(a.text, a.baseVersion);
    }
    case 'history':
      return api.history(COMMAND_SCHEMAS.history.parse(args));
    case 'transactionHistory':
      return api.transactionHistory(COMMAND_SCHEMAS.transactionHistory.parse(args).limit ?? 50);
    case 'replay':
      return api.replay(COMMAND_SCHEMAS.replay.parse(args).callId);
  }
}

/** Validates a command from the wire and runs it; unknown commands and bad arguments fail without side effects. */
export async function dispatchCommand(api: ControlApi, command: unknown, args: unknown): Promise<ControlResult<unknown>> {
  if (typeof command !== 'string' || !isCommandName(command)) {
    return {
      ok: false,
      error: new JunctionError('InvalidArguments', `Unknown console command ${JSON.stringify(command)}.`, { details: { known: COMMAND_NAMES } }).toStructured(),
    };
  }
  const parsed = COMMAND_SCHEMAS[command].safeParse(args ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      error: {
        code: 'InvalidArguments',
        message: `Invalid arguments for ${command}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
        next: next('fixArguments'),
        details: { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
      },
    };
  }
  try {
    return { ok: true, value: await run(api, command, parsed.data ?? {}) };
  } catch (error) {
    return { ok: false, error: toStructuredError(error) };
  }
}
