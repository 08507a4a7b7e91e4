/**
 * npm run bench:policy — what the approval policy adds to every tool call: dispatcher latency (p50/p99)
 * for an in-process tool with no gate, with the gate and an empty policy, and with 100 rules that all
 * have to be tried and miss (tool globs, annotations, 20 argument regexes), in one run. The tool is an
 * in-process no-op, the harshest baseline: ratios look large because the call itself costs ~10 µs.
 * Target: the 100-rule policy adds at most 0.1 ms at p50.
 */
import type { PolicyDocument, PolicyRule } from '../src-main/contracts/console.js';
import { createCatalogue, createDispatcher, type Dispatcher } from '../src-main/mcp/index.js';
import { CallApprovals, PolicyStore } from '../src-main/policy/index.js';
import { successOutcome, type ToolSource } from '../src-main/contracts/tool-source.js';
import { fmt, measureLatency } from './support/stats.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);

const source: ToolSource = {
  id: 'bench',
  listTools: () => [{ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: false } }],
  callTool: async (_name, args) => successOutcome({ echoed: args }),
  onToolsChanged: () => () => undefined,
};

function hundredMisses(): PolicyDocument {
  const rules: PolicyRule[] = [];
  for (let i = 0; i < 100; i++) {
    if (i % 5 === 0) rules.push({ tool: 'ec*', arguments: [{ pointer: '/path', regex: `^never-${i}/.*\\.ts$` }], action: 'deny' });
    else if (i % 5 === 1) rules.push({ tool: 'echo', annotations: { destructiveHint: true }, action: 'ask' });
    else rules.push({ tool: `other-${i}-*`, action: 'deny' });
  }
  return { rules };
}

function dispatcherWith(document: PolicyDocument | undefined): Dispatcher {
  const catalogue = createCatalogue([source]);
  if (!document) return createDispatcher(catalogue);
  const gate = new CallApprovals({ store: new PolicyStore({ path: null, document }), timeoutMs: 1000, events: { requested: () => undefined, decided: () => undefined } });
  return createDispatcher(catalogue, [], undefined, gate);
}

const args = { path: 'src/app/module.ts', text: 'x'.repeat(200), nested: { a: [1, 2, 3] } };
const signal = new AbortController().signal;
const run = (dispatcher: Dispatcher) => () => dispatcher.call({ name: 'echo', args, agent: 'bench', transport: 'mcp-http', signal });

const none = await measureLatency(run(dispatcherWith(undefined)), CALLS);
const empty = await measureLatency(run(dispatcherWith({ rules: [] })), CALLS);
const hundredDispatcher = dispatcherWith(hundredMisses());
const probe = await hundredDispatcher.call({ name: 'echo', args, agent: 'bench', transport: 'mcp-http', signal });
if (probe.result.isError) throw new Error('the 100-rule policy must let the probe call through; fix the rules');
const hundred = await measureLatency(run(hundredDispatcher), CALLS);

console.log(`policy gate, ${CALLS} sequential calls each (ms)`);
console.log(`  no gate            p50 ${fmt(none.p50)}  p99 ${fmt(none.p99)}`);
console.log(`  empty policy       p50 ${fmt(empty.p50)}  p99 ${fmt(empty.p99)}  ratio p50 ${(empty.p50 / none.p50).toFixed(2)}`);
console.log(`  100 rules, no hit  p50 ${fmt(hundred.p50)}  p99 ${fmt(hundred.p99)}  ratio p50 ${(hundred.p50 / none.p50).toFixed(2)}`);
console.log(`  added by 100 rules at p50: ${fmt(hundred.p50 - none.p50)} ms`);
