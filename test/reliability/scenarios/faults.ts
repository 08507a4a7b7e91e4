/**
 * Fault scenarios shared by test/reliability/faults.test.ts and the reliability report: each one
 * injects a fault while a call is in flight and reports how the call ended, whether it ended within
 * the bound the configured deadline implies, and whether the bridge still served a healthy plugin
 * and a fresh agent afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { parseArgv, resolveConfig } from '../../../src-main/app/config/index.js';
import { startJunction, type Junction } from '../../../src-main/app/junction.js';
import { silentLogger } from '../../../src-main/shared/log.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { startLoopbackProxy, type LoopbackProxy } from '../../support/loopback-proxy.js';
import { createProbePlugin, type ProbePlugin } from './probe-plugin.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { withAgent } from './agent.js';
import { callOutcome, describeOutcome, ended, type CallOutcome } from './outcome.js';

export const FAULT_TIMEOUT_MS = 1000;
export const FAULT_RECONNECT_WAIT_SECONDS = 1;
/** Deadline plus the reconnect wait plus slack for a loaded 2-core machine. */
export const FAULT_BOUND_MS = FAULT_TIMEOUT_MS + FAULT_RECONNECT_WAIT_SECONDS * 1000 + 4000;
/** The outer watchdog: far past the bound, so a hang is reported as one instead of stalling the suite. */
export const WATCHDOG_MS = 20_000;
const JUNCTION_ARGS = [`plugin-timeout=${FAULT_TIMEOUT_MS}`, `plugin-reconnect-wait-seconds=${FAULT_RECONNECT_WAIT_SECONDS}`];

export interface FaultResult {
  fault: string;
  outcome: CallOutcome;
  /** The call ended (result, structured error or transport error) within FAULT_BOUND_MS. */
  endedInBound: boolean;
  /** A healthy plugin answered a fresh agent after the fault. */
  healthyAfter: boolean;
  detail: string;
}

export const survived = (r: FaultResult): boolean => r.endedInBound && r.healthyAfter;

const hubOf = (junction: Junction) => `${junction.baseUrl}/hub/mcp-server`;
const FIXTURE = fileURLToPath(new URL('../fixtures/probe-plugin-process.ts', import.meta.url));

interface Stage {
  junction: TestJunction;
  healthy: ProbePlugin;
  cleanups: (() => Promise<unknown> | void)[];
}

/** A Junction with a healthy runtime probe (`h-` tools) beside whatever the scenario adds. */
/** `args` come first, so a scenario's own setting wins over the shared ones (the first value wins). */
async function stage(args: string[] = []): Promise<Stage> {
  const junction = await startTestJunction([...args, ...JUNCTION_ARGS]);
  const healthy = createProbePlugin({ endpoint: hubOf(junction), role: 'runtime', name: 'healthy', prefix: 'h-' });
  await healthy.plugin.connect();
  return { junction, healthy, cleanups: [() => healthy.plugin.disconnect()] };
}

async function teardown(s: Stage): Promise<void> {
  for (const cleanup of s.cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  await s.junction.stop();
}

async function waitForTools(junction: Junction, names: string[]): Promise<void> {
  await withAgent(junction.baseUrl, (agent) =>
    eventually(async () => {
      const { tools } = await agent.listTools();
      const have = new Set(tools.map((t) => t.name));
      return names.every((n) => have.has(n));
    }, 10_000, `tools ${names.join(', ')}`),
  );
}

/** How long a plugin has, after a fault, to answer a fresh agent's echo. */
const ANSWERS_WITHIN_MS = 10_000;

/**
 * Calls the probe's echo with a fresh id until it answers, for up to ANSWERS_WITHIN_MS: the problem, or
 * undefined once an answer came from exactly one execution and no attempt ran twice. Attempts that end
 * otherwise are allowed and said: with plugin-timeout at 1 s, the first echo after the bridge restarted
 * once met ToolTimeout after 5.3 s, the in-process Junction's event loop held by a collection (since
 * replaced, app/runtime/idle-heap.ts), while a bridge that stopped serving fails every attempt.
 */
async function answersAgain(agent: Client, probe: ProbePlugin, who: string): Promise<{ problem?: string; said?: string }> {
  const attempts: Array<{ id: string; outcome: CallOutcome }> = [];
  const tried = () => {
    const said = attempts.map((a) => describeOutcome(a.outcome));
    return said.length <= 4 ? said.join(', ') : `${said.length} attempts: ${said.slice(0, 3).join(', ')}, …, ${said.at(-1)}`;
  };
  try {
    await eventually(async () => {
      const id = `${who}-${Date.now()}-${attempts.length}`;
      const outcome = await callOutcome(agent, probe.tools.echo, { id }, WATCHDOG_MS);
      attempts.push({ id, outcome });
      return outcome.kind === 'result';
    }, ANSWERS_WITHIN_MS, `${who}'s echo`);
  } catch {
    return { problem: `${who}'s ${probe.tools.echo} did not answer within ${ANSWERS_WITHIN_MS / 1000} s: ${tried()}` };
  }
  const answered = attempts.at(-1)!.id;
  if (probe.executions.get(answered) !== 1) return { problem: `${who}'s answered echo ran ${probe.executions.get(answered) ?? 0} times` };
  const twice = attempts.find((a) => (probe.executions.get(a.id) ?? 0) > 1);
  if (twice) return { problem: `${who}'s echo ${twice.id} ran ${probe.executions.get(twice.id)} times` };
  return attempts.length === 1 ? {} : { said: `${who} answered at attempt ${attempts.length} (${tried()})` };
}

/**
 * A fresh agent calls the healthy probe's echo and, when given, the faulted plugin's once it is back.
 * What it found joins the fault's detail, so a run that fails once on CI can be read from its log.
 */
async function afterFault(junction: Junction, healthy: ProbePlugin, recovered?: ProbePlugin): Promise<{ problem?: string; said?: string }> {
  return withAgent(junction.baseUrl, async (agent) => {
    const found = [await answersAgain(agent, healthy, 'the healthy plugin')];
    if (recovered && !found[0]!.problem) found.push(await answersAgain(agent, recovered, 'the faulted plugin'));
    const join = (key: 'problem' | 'said') => found.map((f) => f[key]).filter(Boolean).join('; ') || undefined;
    return { problem: join('problem'), said: join('said') };
  });
}

function result(fault: string, outcome: CallOutcome, after: { problem?: string; said?: string }): FaultResult {
  const endedInBound = ended(outcome) && outcome.ms <= FAULT_BOUND_MS;
  const afterwards = [after.problem, after.said].filter(Boolean).join('; ');
  return { fault, outcome, endedInBound, healthyAfter: after.problem === undefined, detail: describeOutcome(outcome) + (afterwards ? `; afterwards ${afterwards}` : '') };
}

/** A plugin that takes far longer than `plugin-timeout`: the agent gets ToolTimeout, not a wait. */
export async function slowPluginPastDeadline(): Promise<FaultResult> {
  const s = await stage();
  try {
    const slow = createProbePlugin({ endpoint: hubOf(s.junction), role: 'editor', name: 'slow', prefix: 's-' });
    await slow.plugin.connect();
    s.cleanups.push(() => slow.plugin.disconnect());
    await waitForTools(s.junction, [slow.tools.slow, s.healthy.tools.echo]);
    const agent = await s.junction.connectAgent();
    const outcome = await callOutcome(agent, slow.tools.slow, { id: 'past-deadline', ms: 30_000 }, WATCHDOG_MS);
    return result('slow plugin past the deadline', outcome, await afterFault(s.junction, s.healthy, slow));
  } finally {
    await teardown(s);
  }
}

function spawnProbe(endpoint: string, name: string, prefix: string): { child: ChildProcess; started: Promise<string>; connected: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, endpoint, 'editor', name, prefix], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const connected = new Promise<void>((resolve) => lines.on('line', (l) => l === 'connected' && resolve()));
  const started = new Promise<string>((resolve) => lines.on('line', (l) => l.startsWith('started ') && resolve(l.slice(8))));
  return { child, started, connected };
}

/** The plugin process dies (SIGKILL) while it runs a call: the agent gets a structured error. */
export async function pluginKilledMidCall(): Promise<FaultResult> {
  const s = await stage();
  const probe = spawnProbe(hubOf(s.junction), 'doomed', 'k-');
  const exited = new Promise<void>((resolve) => probe.child.once('exit', () => resolve()));
  s.cleanups.push(async () => {
    probe.child.kill('SIGKILL');
    await exited;
  });
  try {
    await probe.connected;
    await waitForTools(s.junction, ['k-slow', s.healthy.tools.echo]);
    const agent = await s.junction.connectAgent();
    const call = callOutcome(agent, 'k-slow', { id: 'killed', ms: 30_000 }, WATCHDOG_MS);
    await probe.started;
    probe.child.kill('SIGKILL');
    return result('plugin killed mid-call', await call, await afterFault(s.junction, s.healthy));
  } finally {
    await teardown(s);
  }
}

/** Plugin traffic runs through a loopback proxy the scenario controls. */
async function proxiedProbe(s: Stage, prefix: string): Promise<{ proxy: LoopbackProxy; probe: ProbePlugin }> {
  const proxy = await startLoopbackProxy(s.junction.port);
  const probe = createProbePlugin({ endpoint: `http://127.0.0.1:${proxy.port}/hub/mcp-server`, role: 'editor', name: 'proxied', prefix });
  await probe.plugin.connect();
  s.cleanups.push(() => proxy.close(), () => probe.plugin.disconnect());
  await waitForTools(s.junction, [probe.tools.echo, s.healthy.tools.echo]);
  return { proxy, probe };
}

/** The link to the plugin goes silent (bytes swallowed, sockets open): the deadline ends the call. */
export async function networkBlackhole(): Promise<FaultResult> {
  const s = await stage();
  try {
    const { proxy, probe } = await proxiedProbe(s, 'b-');
    const agent = await s.junction.connectAgent();
    proxy.setMode({ kind: 'blackhole' });
    const outcome = await callOutcome(agent, probe.tools.echo, { id: 'blackholed' }, WATCHDOG_MS);
    proxy.setMode({ kind: 'pass' });
    return result('network blackhole (stall)', outcome, await afterFault(s.junction, s.healthy));
  } finally {
    await teardown(s);
  }
}

/**
 * Every byte to and from the plugin is delayed well under the deadline: the call still succeeds. The
 * shared 1 s deadline left 700 ms beside the 300 ms the delay adds to the round trip, which a loaded
 * 2-core CI machine used up once (ToolTimeout in 1053 ms); this deadline is still far inside the bound.
 */
const DELAYED_LINK_TIMEOUT_MS = 4000;
export async function networkDelay(): Promise<FaultResult> {
  const s = await stage([`plugin-timeout=${DELAYED_LINK_TIMEOUT_MS}`]);
  try {
    const { proxy, probe } = await proxiedProbe(s, 'd-');
    const agent = await s.junction.connectAgent();
    proxy.setMode({ kind: 'delay', ms: 150 });
    const outcome = await callOutcome(agent, probe.tools.echo, { id: 'delayed' }, WATCHDOG_MS);
    proxy.setMode({ kind: 'pass' });
    const delivered = outcome.kind === 'result' && probe.executions.get('delayed') === 1;
    const r = result('network delay (150 ms each way)', outcome, await afterFault(s.junction, s.healthy, probe));
    return { ...r, endedInBound: r.endedInBound && delivered };
  } finally {
    await teardown(s);
  }
}

/** The plugin's connection is cut mid-call: the call ends, and the plugin reconnects and serves again. */
export async function networkDropMidCall(): Promise<FaultResult> {
  const s = await stage();
  try {
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const proxy = await startLoopbackProxy(s.junction.port);
    const probe = createProbePlugin({ endpoint: `http://127.0.0.1:${proxy.port}/hub/mcp-server`, role: 'editor', name: 'dropped', prefix: 'x-', onSlowStarted: () => markStarted() });
    await probe.plugin.connect();
    s.cleanups.push(() => proxy.close(), () => probe.plugin.disconnect());
    await waitForTools(s.junction, [probe.tools.slow, s.healthy.tools.echo]);
    const agent = await s.junction.connectAgent();
    const call = callOutcome(agent, probe.tools.slow, { id: 'dropped', ms: 30_000 }, WATCHDOG_MS);
    await started;
    proxy.dropAll();
    return result('connection dropped mid-call', await call, await afterFault(s.junction, s.healthy, probe));
  } finally {
    await teardown(s);
  }
}

/**
 * A Junction on a given port: the test harness always asks for an ephemeral one (its `port=0` comes
 * first and the first value wins), and a restart must come back where the plugin reconnects.
 */
async function startJunctionOnPort(port: number): Promise<{ junction: Junction; stop(): Promise<void> }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-state-'));
  const { parsed, problems } = parseArgv([`port=${port}`, `state-dir=${stateDir}`, 'log-level=error', ...JUNCTION_ARGS]);
  const junction = await startJunction({ config: resolveConfig([{ values: parsed.values, problems }]), logger: silentLogger });
  return {
    junction,
    async stop() {
      await junction.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** The whole bridge stops with a call in flight and a new one starts on the same port. */
export async function bridgeRestartedMidCall(): Promise<FaultResult> {
  const first = await stage();
  const port = first.junction.port;
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const endpoint = hubOf(first.junction);
  const probe = createProbePlugin({ endpoint, role: 'editor', name: 'survivor', prefix: 'r-', reconnectDelaysMs: [100, 250, 500, 1000], onSlowStarted: () => markStarted() });
  await probe.plugin.connect();
  let second: Awaited<ReturnType<typeof startJunctionOnPort>> | undefined;
  try {
    await waitForTools(first.junction, [probe.tools.slow]);
    const agent = await first.junction.connectAgent();
    const call = callOutcome(agent, probe.tools.slow, { id: 'restarted', ms: 30_000 }, WATCHDOG_MS);
    await started;
    await teardown(first);
    second = await startJunctionOnPort(port);
    const outcome = await call;
    const healthy = createProbePlugin({ endpoint, role: 'runtime', name: 'healthy', prefix: 'h-' });
    await healthy.plugin.connect();
    try {
      await waitForTools(second.junction, [probe.tools.echo, healthy.tools.echo]);
      return result('bridge restarted mid-call', outcome, await afterFault(second.junction, healthy, probe));
    } finally {
      await healthy.plugin.disconnect();
    }
  } finally {
    await probe.plugin.disconnect().catch(() => undefined);
    await second?.stop();
  }
}

export const FAULT_SCENARIOS: readonly (() => Promise<FaultResult>)[] = [
  slowPluginPastDeadline,
  pluginKilledMidCall,
  networkBlackhole,
  networkDelay,
  networkDropMidCall,
  bridgeRestartedMidCall,
];
