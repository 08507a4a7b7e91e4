/**
 * Logs go to stderr, one line each: stdout belongs to the MCP protocol in stdio mode, and a person
 * reading a terminal wants one readable line per event with its fields after it.
 */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface Logger {
  error(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
  /** Present on loggers whose verbosity the operator may change while Junction runs. */
  setLevel?(level: LogLevel): void;
}

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export function createLogger(initial: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  let level = initial;
  const emit = (at: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (RANK[at] > RANK[level]) return;
    const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    write(`${new Date().toISOString()} ${at.padEnd(5)} ${message}${suffix}\n`);
  };
  return {
    error: (m, f) => emit('error', m, f),
    warn: (m, f) => emit('warn', m, f),
    info: (m, f) => emit('info', m, f),
    debug: (m, f) => emit('debug', m, f),
    setLevel: (next) => {
      level = next;
    },
  };
}

export const silentLogger: Logger = { error() {}, warn() {}, info() {}, debug() {} };
