/**
 * The Junction the fuzzers attack: small frame and body limits (so oversize is cheap to reach), a
 * tiny trusted workspace (so host tools get past "no workspace"), and a healthy runtime plugin
 * whose calls must keep working throughout. With `ownProcess` Junction runs in a child process, so
 * its memory can be measured apart from the test's agents and plugin.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startJunctionProcess, type ProcessMemory } from '../../support/junction-process.js';
import { startTestJunction } from '../../support/junction-harness.js';
import { withAgent } from './agent.js';
import { callOutcome } from './outcome.js';
import { createProbePlugin, type ProbePlugin } from './probe-plugin.js';
import { FUZZ_MAX_BODY_BYTES, FUZZ_MAX_FRAME_BYTES, fuzzAccess, fuzzApi, fuzzHostTools, fuzzHub, fuzzMcp } from './fuzz.js';
import type { AttackTally } from './attacks.js';
import { fuzzPins } from './fuzz-pins.js';
import { sampleRss, type RssSummary } from './rss.js';

export interface FuzzStage {
  junction: { baseUrl: string; port: number };
  healthy: ProbePlugin;
  /** A fresh agent gets a result from the healthy plugin. */
  stillHealthy(): Promise<boolean>;
  isHostTool(name: string): boolean;
  /** Junction's memory after a full collection in its own process (a stage started with `ownProcess` only). */
  memory?: () => Promise<ProcessMemory>;
  stop(): Promise<void>;
}

export interface FuzzStageOptions {
  /** Junction runs in token mode and the healthy plugin and probe agents present this token. */
  token?: string;
  /** Junction runs in a child process of its own, and `memory` reads it. */
  ownProcess?: boolean;
  /** More Junction settings (`key=value`). */
  settings?: string[];
}

const HEALTHY_PREFIX = 'healthy-';

export async function startFuzzStage(options: FuzzStageOptions = {}): Promise<FuzzStage> {
  const { token } = options;
  const workspace = mkdtempSync(join(tmpdir(), 'junction-fuzz-ws-'));
  writeFileSync(join(workspace, 'index.ts'), 'export const answer: number = 42;\nexport function twice(x: number): number { return x * 2; }\n');
  writeFileSync(join(workspace, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true}}\n');
  const settings = [
    ...(options.settings ?? []),
    `max-frame-bytes=${FUZZ_MAX_FRAME_BYTES}`,
    `max-body-bytes=${FUZZ_MAX_BODY_BYTES}`,
    `workspace=${workspace}`,
    'plugin-timeout=2000',
    ...(token ? ['auth=token', `token=${token}`] : []),
  ];
  const junction = options.ownProcess ? await startJunctionProcess(settings) : await startTestJunction(settings);
  const healthy = createProbePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, role: 'runtime', name: 'healthy', prefix: HEALTHY_PREFIX, ...(token ? { token } : {}) });
  await healthy.plugin.connect();
  let probes = 0;
  return {
    junction,
    healthy,
    stillHealthy: () =>
      withAgent(junction.baseUrl, async (agent) => {
        const id = `still-${++probes}`;
        const outcome = await callOutcome(agent, healthy.tools.echo, { id }, 10_000);
        return outcome.kind === 'result' && healthy.executions.get(id) === 1;
      }, token),
    isHostTool: (name) => !name.startsWith(HEALTHY_PREFIX),
    ...('memory' in junction ? { memory: () => junction.memory() } : {}),
    async stop() {
      await healthy.plugin.disconnect();
      await junction.stop();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

export interface FuzzRun {
  tallies: AttackTally[];
  rss: RssSummary;
  healthyAfter: boolean;
}

export const ACCESS_TOKEN = 'reliability-token-0123456789abcdef';

/** Every fuzzer in one go, for the report; the tests run the same functions one by one. */
export async function runAllFuzzers(runs: number): Promise<FuzzRun> {
  const rss = sampleRss();
  const stage = await startFuzzStage();
  const tallies: AttackTally[] = [];
  let healthyAfter = false;
  try {
    tallies.push(...(await fuzzHub(`${stage.junction.baseUrl}/hub/mcp-server`, runs, stage.stillHealthy)));
    tallies.push(...(await fuzzMcp(stage.junction.port, runs)));
    const names = await withAgent(stage.junction.baseUrl, async (agent) => (await agent.listTools()).tools.map((t) => t.name));
    tallies.push(...(await fuzzApi(stage.junction.port, runs * 2, names)));
    tallies.push(...(await withAgent(stage.junction.baseUrl, (agent) => fuzzHostTools(agent, Math.max(2, Math.ceil(runs / 8)), stage.isHostTool))));
    healthyAfter = await stage.stillHealthy();
  } finally {
    await stage.stop();
  }
  const guarded = await startFuzzStage({ token: ACCESS_TOKEN });
  try {
    tallies.push(...(await fuzzAccess(guarded.junction.port, ACCESS_TOKEN, Math.ceil(runs / 2))));
    healthyAfter &&= await guarded.stillHealthy();
  } finally {
    await guarded.stop();
  }
  tallies.push(...(await fuzzPins(runs)));
  return { tallies, rss: rss.stop(), healthyAfter };
}
