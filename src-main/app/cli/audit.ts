/**
 * `junction audit export [--since ISO] [--until ISO] [--format jsonl|csv] [settings…]`: streams the audit
 * trail to stdout. It reads the same settings as serve (state-dir above all) and needs no running Junction.
 */
import type { Writable } from 'node:stream';
import { auditDbPath, exportAudit, parseInstant, type ExportFormat } from '../../audit/index.js';
import { JunctionError } from '../../contracts/index.js';
import { loadConfig, userStateDir } from '../config/index.js';

type ExportFlag = 'since' | 'until' | 'format';

/** Separates the export's own flags from settings, which go through the shared configuration loader. */
function splitFlags(argv: readonly string[]): { flags: Partial<Record<ExportFlag, string>>; rest: string[] } {
  const flags: Partial<Record<ExportFlag, string>> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--(since|until|format)(?:=(.*))?$/.exec(arg);
    if (!match) {
      rest.push(arg);
      continue;
    }
    const name = match[1] as ExportFlag;
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new JunctionError('ConfigInvalid', `--${name}: a value is required`);
    flags[name] = value;
  }
  return { flags, rest };
}

export async function runAuditCommand(argv: readonly string[], out: Writable = process.stdout, err: Writable = process.stderr): Promise<number> {
  const [sub, ...args] = argv;
  if (sub !== 'export') throw new JunctionError('ConfigInvalid', `audit: unknown subcommand ${JSON.stringify(sub ?? '')}; use: junction audit export [--since ISO] [--until ISO] [--format jsonl|csv]`);
  const { flags, rest } = splitFlags(args);
  const format = flags.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'csv') throw new JunctionError('ConfigInvalid', `--format: expected jsonl or csv, got ${JSON.stringify(format)}`);
  const since = parseInstant('--since', flags.since);
  const until = parseInstant('--until', flags.until);
  const { config } = loadConfig(rest);
  const path = auditDbPath(config['state-dir'] ?? userStateDir());
  const warn = (message: string) => void err.write(`junction audit export: ${message}\n`);
  // A reader that stops early (`| head`) closes the pipe: the export stops quietly. Any other failure of
  // the output is reported once the export has stopped, not thrown from the stream as a stack trace.
  let failed: Error | undefined;
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') failed ??= error;
  };
  out.on('error', onError);
  try {
    const count = await exportAudit({ path, format: format as ExportFormat, warn, ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}) }, out);
    if (failed) throw new JunctionError('InternalError', `audit export: writing the output failed: ${failed.message}`);
    return count;
  } finally {
    out.off('error', onError);
  }
}
