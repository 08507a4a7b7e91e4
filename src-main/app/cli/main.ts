/**
 * `junction start | serve | connect | help`. Start opens the Electron console when the binary exists and
 * otherwise serves the same console headless on loopback, saying why.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isJunctionError } from '../../contracts/index.js';
import { createLogger } from '../../shared/index.js';
import { CONFIG_KEYS, envNameOf, loadConfig, type LoadedConfig } from '../config/index.js';
import { findElectronBinary } from './electron-binary.js';
import { limitOldGenerationGrowth } from '../runtime/heap-growth.js';
import { runAuditCommand } from './audit.js';
import { startJunction, type Junction } from '../junction.js';
import { relayStdio, reserveStdoutForProtocol, serveStdioFor } from './stdio-mode.js';

const USAGE = `Usage: junction <command> [key=value | --key value ...]

Commands:
  start     Electron console if available, else headless with the console on loopback (demo on by default)
  serve     headless: hub, /mcp, /api and the console (client-transport=stdio also serves MCP on stdio)
  connect   stdio MCP for agents that spawn a process: relays to a running instance, or starts one in-process
  audit export [--since ISO] [--until ISO] [--format jsonl|csv]
            stream the audit trail (state-dir/audit/audit.db) to stdout, one call or event per line; works with Junction stopped
  help      this text

Settings (command line wins over JUNCTION_* environment variables, which win over the settings file):
${Object.entries(CONFIG_KEYS)
  .map(([key, spec]) => `  ${key.padEnd(32)} ${spec.description} [${envNameOf(key)}]${spec.default !== undefined && !(Array.isArray(spec.default) && spec.default.length === 0) ? ` (default ${String(spec.default)})` : ''}`)
  .join('\n')}
`;

function stopOnSignals(stop: () => Promise<void>) {
  let stopping = false;
  const handler = () => {
    if (stopping) process.exit(130);
    stopping = true;
    stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

async function serveHeadless(loaded: LoadedConfig, reason?: string): Promise<Junction> {
  const { config, origins, settingsPath } = loaded;
  const logger = createLogger(config['log-level']);
  const junction = await startJunction({ config, origins, settingsPath, logger });
  // The demo's scene plugins bring the SignalR client and the plugin SDK; a Junction without the demo never loads them.
  const demo = config.demo ? await (await import('./demo.js')).startDemo(junction, logger) : undefined;
  stopOnSignals(async () => {
    await demo?.stop();
    await junction.close();
  });
  const lines = [
    reason ? `Junction is running headless: ${reason}.` : 'Junction is running headless.',
    `  console  ${config.console ? junction.consoleUrl : '(disabled)'}`,
    `  MCP      ${junction.baseUrl}/mcp   (stdio: junction connect --port ${junction.port})`,
    `  hub      ${junction.baseUrl}/hub/mcp-server`,
    `  API      ${junction.baseUrl}/api/tools   (system tools: ${junction.baseUrl}/api/system-tools)`,
    ...(config['project-routing'] === 'multi' ? [`  pinned   ${junction.baseUrl}/p/{pin}/mcp, /p/{pin}/api/tools and /p/{pin}/api/system-tools (project-routing=multi; pins in the console)`] : []),
    ...(demo ? [`  demo     workspace ${demo.workspaceRoot}; scene plugins connected as editor and runtime`] : []),
    'Press Ctrl+C to stop.',
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
  return junction;
}

async function main(argv: string[]): Promise<void> {
  limitOldGenerationGrowth();
  const [command = 'help', ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === 'start') {
    // Appended, so an explicit demo=false earlier on the command line still wins.
    const loaded = loadConfig([...rest, 'demo=true']);
    const electron = findElectronBinary();
    if (electron.found) {
      const entry = join(fileURLToPath(new URL('..', import.meta.url)), 'electron-entry.js');
      const child = spawn(electron.path, [entry, ...rest], { stdio: 'inherit' });
      child.on('exit', (code) => process.exit(code ?? 0));
      return;
    }
    await serveHeadless(loaded, `${electron.reason}, so the console is served to your browser instead`);
    return;
  }
  if (command === 'serve') {
    const loaded = loadConfig(rest);
    const stdio = loaded.config['client-transport'] === 'stdio';
    if (stdio) reserveStdoutForProtocol();
    const junction = await serveHeadless(loaded);
    if (stdio) await serveStdioFor(junction);
    return;
  }
  if (command === 'audit') {
    await runAuditCommand(rest);
    return;
  }
  if (command === 'connect') {
    const { config } = loadConfig(rest);
    await relayStdio(config);
    return;
  }
  process.stderr.write(`junction: unknown command '${command}'\n\n${USAGE}`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`junction: ${isJunctionError(error) ? error.message : (error as Error).stack ?? String(error)}\n`);
  process.exit(isJunctionError(error) && (error.code === 'ConfigInvalid' || error.code === 'PolicyInvalid') ? 2 : 1);
});
