/**
 * stdio for agents: relay to a running Junction's /mcp when one answers on the configured port,
 * otherwise start one in-process and serve its catalogue on stdio. Only protocol goes to stdout.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { redirectConsoleToStderr } from '../../host/plugins/index.js';
import { proxyStdioToHttp, refuseStdio, serveStdio } from '../../mcp/index.js';
import { loadOrCreateToken } from '../../security/index.js';
import { JunctionError, toStructuredError } from '../../contracts/index.js';
import { splitPinnedPath, createLogger } from '../../shared/index.js';
import { userStateDir, type Config } from '../config/index.js';
import { startJunction, type Junction } from '../junction.js';

/**
 * How long the probe waits for a Junction to answer. Where nothing listens the answer is an immediate
 * refusal, so this only bounds a Junction that is there but slow (a loaded machine): at 1.5 s a relay
 * beside a busy test suite gave up on one and tried to start its own on the port it held.
 */
const PROBE_TIMEOUT_MS = 10_000;

async function runningJunction(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const body = (await response.json()) as { name?: unknown };
    return response.ok && body.name === 'junction';
  } catch {
    return false;
  }
}

/** Resolves when stdin ends, the agent's way of saying it is done. */
const stdinEnded = () => new Promise<void>((resolve) => process.stdin.once('end', resolve).once('close', resolve));

export async function serveStdioFor(junction: Junction, pin?: string): Promise<void> {
  let transport: Transport;
  try {
    transport = await serveStdio(junction.mcpFactory, {}, pin);
  } catch (error) {
    // The session's server could not be built (the SDK's Server did not load): as when the instance
    // cannot start, the agent's requests are answered with the cause.
    const structured = toStructuredError(error);
    process.stderr.write(`junction: no MCP session can be served on stdio: ${structured.message}\n`);
    process.exitCode = 1;
    await refuseStdio(structured);
    await junction.close();
    return;
  }
  await stdinEnded();
  await transport.close();
  await junction.close();
}

/** In stdio mode stdout is the protocol: anything in-process (plugins included) that logs must use stderr. */
export function reserveStdoutForProtocol(): void {
  redirectConsoleToStderr();
}

/** The validated, lower-cased `project-pin`, checked like a pin in a path so both refuse the same input. */
function projectPinOf(config: Config): string | undefined {
  const raw = config['project-pin'];
  if (raw === undefined) return undefined;
  const route = splitPinnedPath(`/p/${raw}/mcp`);
  if (route.kind !== 'valid') throw new JunctionError('ConfigInvalid', `project-pin: '${raw}' is not 1-64 hexadecimal characters.`);
  return route.pin;
}

export async function relayStdio(config: Config): Promise<void> {
  const pin = projectPinOf(config);
  reserveStdoutForProtocol();
  const logger = createLogger(config['log-level']);
  const displayHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const baseUrl = `http://${displayHost}:${config.port}`;
  if (await runningJunction(baseUrl)) {
    const mcpUrl = `${baseUrl}${pin ? `/p/${pin}` : ''}/mcp`;
    logger.info(`junction connect: relaying stdio to ${mcpUrl}`);
    const token = config.auth === 'token' ? (config.token ?? (await loadOrCreateToken(config['state-dir'] ?? userStateDir()))) : undefined;
    const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
    const proxy = await proxyStdioToHttp(new URL(mcpUrl), { ...(headers ? { headers } : {}), log: (m) => logger.warn(m) });
    await proxy.closed;
    return;
  }
  if (pin && config['project-routing'] !== 'multi') throw new JunctionError('ConfigInvalid', 'project-pin: pins route only with project-routing=multi.');
  logger.info(`junction connect: no Junction answers at ${baseUrl}; starting one in this process`);
  let junction: Junction;
  try {
    junction = await startJunction({ config, logger });
  } catch (error) {
    // The agent only sees stdout: answer its requests with the cause, and say it on stderr for its log.
    const structured = toStructuredError(error);
    process.stderr.write(`junction connect: no Junction answers at ${baseUrl}, and one could not be started in this process: ${structured.message}\n`);
    process.exitCode = 1;
    await refuseStdio({ ...structured, message: `Junction could not start: ${structured.message}` });
    return;
  }
  await serveStdioFor(junction, pin);
}
