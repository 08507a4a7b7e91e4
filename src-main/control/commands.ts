/**
 * Run-time dispatch of console commands: every transport hands the raw `{ command, args }` here and
 * gets a ControlResult back, never a thrown error. Names, schemas and handler types all come from the
 * one table in contracts/console-commands.ts; nothing here lists commands.
 */
import { CONSOLE_COMMANDS, CONTROL_COMMAND_NAMES, isControlCommandName, JunctionError, next, toStructuredError } from '../contracts/index.js';
import type { ControlCommandHandlers, ControlCommandName, ControlResult, StructuredError } from '../contracts/index.js';

type Parsed = { ok: true; command: ControlCommandName; args: unknown } | { ok: false; error: StructuredError };

/** The one answer to a command name the table does not hold, whichever transport carried it. */
export function unknownCommandError(name: unknown): StructuredError {
  const shown = typeof name === 'string' ? JSON.stringify(name) : String(name);
  return new JunctionError('InvalidArguments', `Unknown console command ${shown}.`, { next: next('fixArguments'), details: { known: CONTROL_COMMAND_NAMES } }).toStructured();
}

function parse(command: unknown, args: unknown): Parsed {
  if (!isControlCommandName(command)) return { ok: false, error: unknownCommandError(command) };
  const parsed = CONSOLE_COMMANDS[command].input.safeParse(args ?? {});
  if (parsed.success) return { ok: true, command, args: parsed.data };
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

function run(handlers: ControlCommandHandlers, command: ControlCommandName, args: unknown): unknown {
  // The table's schema for `command` produced `args`; TypeScript cannot follow that correlation.
  const handler = handlers[command] as (args: unknown) => unknown;
  return handler(args);
}

/** Validates a command from the wire against the table and runs its handler; unknown commands and bad arguments fail without side effects. */
export async function dispatchCommand(handlers: ControlCommandHandlers, command: unknown, args: unknown): Promise<ControlResult<unknown>> {
  const parsed = parse(command, args);
  if (!parsed.ok) return parsed;
  try {
    return { ok: true, value: await run(handlers, parsed.command, parsed.args) };
  } catch (error) {
    return { ok: false, error: toStructuredError(error) };
  }
}

/** The same validation for in-process callers (the Electron tray, tests): a refusal is thrown as its JunctionError. */
export async function invokeCommand(handlers: ControlCommandHandlers, command: ControlCommandName, args: unknown): Promise<unknown> {
  const parsed = parse(command, args);
  if (!parsed.ok) throw new JunctionError(parsed.error.code, parsed.error.message, { ...(parsed.error.next ? { next: parsed.error.next } : {}), ...(parsed.error.details ? { details: parsed.error.details } : {}) });
  return run(handlers, parsed.command, parsed.args);
}
