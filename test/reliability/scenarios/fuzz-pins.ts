/**
 * Prefix-colliding pins: a family of projects whose path hashes share long prefixes connect and leave
 * while agents call through `/p/{pin}/…` with pins cut from those hashes (short, long, upper-case,
 * matching none). The model of which projects are live decides every answer: a pin that matches one
 * live project is served by exactly it, none is 404 ProjectNotConnected, several is 409
 * ProjectPinAmbiguous naming exactly those projects. Any other answer, or a project serving a pin
 * it does not match, is a violation.
 */
import fc from 'fast-check';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DotnetLikePlugin, field } from '../../support/dotnet-like-plugin.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { withAgent } from './agent.js';
import { tally, violate, type AttackTally } from './attacks.js';
import { rawRequest } from './fuzz.js';
import { sample } from './fuzz-inputs.js';

const FAMILY_PREFIX = 'aaaaaaaa';

type Route = 'api' | 'system' | 'mcp';
type Step = { kind: 'call'; route: Route; hash: number; length: number; upper: boolean } | { kind: 'toggle'; hash: number };

interface Answer {
  status: number;
  code?: string;
  servedBy?: string;
  candidates?: string[];
}

/** Hashes that share the family prefix and, among themselves, one to several more characters. */
function familyHashes(count: number, salt: number): string[] {
  const suffixes = sample(fc.uniqueArray(fc.stringMatching(/^[01]{8}$/), { minLength: count, maxLength: count }), 1, salt)[0] ?? [];
  return suffixes.map((s) => `${FAMILY_PREFIX}${s}`);
}

async function connectProject(hubUrl: string, hash: string): Promise<DotnetLikePlugin> {
  const plugin = await DotnetLikePlugin.connect(hubUrl, { instanceId: `i-${hash}`, engine: 'unity', projectName: `p-${hash}`, projectPathHash: hash });
  const id = (r: unknown) => field(r, 'requestId');
  const ok = (r: unknown, value: unknown) => ({ RequestID: id(r), Status: 'Success', Value: value });
  const tool = (name: string) => ({ Name: name, Enabled: true, InputSchema: { type: 'object' } });
  const answer = (r: unknown) => ok(r, { RequestID: id(r), Status: 'Success', Content: [{ Type: 'text', Text: hash }], StructuredContent: { hash } });
  plugin
    .handle('RunListTool', (r) => ok(r, [tool('whoami')]))
    .handle('RunListPrompts', (r) => ok(r, []))
    .handle('RunListResources', (r) => ok(r, []))
    .handle('RunResourceTemplates', (r) => ok(r, []))
    .handle('RunListSystemTool', (r) => ok(r, [tool('ping')]))
    .handle('RunSystemTool', answer)
    .handle('RunCallTool', answer);
  await plugin.versionHandshake();
  return plugin;
}

function readError(body: unknown): Pick<Answer, 'code' | 'candidates'> {
  const error = (body as { error?: { code?: string; details?: { candidates?: Array<{ label: string }> } } } | undefined)?.error;
  return { ...(error?.code ? { code: error.code } : {}), ...(error?.details?.candidates ? { candidates: error.details.candidates.map((c) => c.label) } : {}) };
}

async function ask(junction: TestJunction, route: Route, pin: string): Promise<Answer> {
  if (route === 'mcp') {
    return withAgent(`${junction.baseUrl}/p/${pin}`, async (agent) => {
      const result = (await agent.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
      const structured = result.structuredContent as { hash?: string } | undefined;
      if (!result.isError) return { status: 200, ...(structured?.hash ? { servedBy: structured.hash } : {}) };
      const error = readError(structured);
      return { status: error.code === 'ProjectPinAmbiguous' ? 409 : 404, ...error };
    });
  }
  const path = route === 'api' ? `/p/${pin}/api/tools/whoami` : `/p/${pin}/api/system-tools/ping`;
  const reply = await rawRequest(junction.port, path, { 'content-type': 'application/json' }, '{}');
  const body = JSON.parse(reply.body) as Record<string, unknown>;
  const served = (body['structuredContent'] as { hash?: string } | undefined)?.hash ?? (route === 'system' ? ((body['content'] as Array<{ text?: string }> | undefined)?.[0]?.text) : undefined);
  return { status: reply.status, ...(reply.status === 200 && served ? { servedBy: served } : {}), ...readError(body) };
}

export async function fuzzPins(runs: number, familySize = 5): Promise<AttackTally[]> {
  const t = tally('pins: prefix-colliding pins');
  const junction = await startTestJunction(['project-routing=multi', 'plugin-reconnect-wait-seconds=0']);
  const hubUrl = `${junction.baseUrl}/hub/mcp-server`;
  const hashes = familyHashes(familySize, 41);
  const live = new Map<string, DotnetLikePlugin>();
  const settled = () => eventually(() => junction.bridge.pluginViews().filter((v) => v.toolCount > 0 && v.state === 'connected').length === live.size, 10_000, 'the projects to settle');
  try {
    for (const hash of hashes.slice(0, familySize - 1)) live.set(hash, await connectProject(hubUrl, hash));
    await settled();
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('call' as const), route: fc.constantFrom<Route>('api', 'api', 'system', 'mcp'), hash: fc.nat(familySize - 1), length: fc.integer({ min: 1, max: 16 }), upper: fc.boolean() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('toggle' as const), hash: fc.nat(familySize - 1) }) },
    );
    for (const next of sample(step, runs, 42)) {
      const hash = hashes[next.hash] as string;
      if (next.kind === 'toggle') {
        const plugin = live.get(hash);
        if (plugin) {
          live.delete(hash);
          await plugin.close();
        } else {
          live.set(hash, await connectProject(hubUrl, hash));
        }
        await settled();
        continue;
      }
      t.tried++;
      const cut = hash.slice(0, next.length);
      const pin = next.upper ? cut.toUpperCase() : cut;
      const matches = [...live.keys()].filter((h) => h.startsWith(cut));
      const answer = await ask(junction, next.route, pin).catch((error: unknown) => ({ status: 0, code: String(error) }) as Answer);
      const input = { route: next.route, pin, live: [...live.keys()] };
      if (matches.length === 1) {
        if (answer.status === 200 && answer.servedBy === matches[0]) t.accepted++;
        else violate(t, input, `expected ${matches[0]} to serve it, got ${JSON.stringify(answer)}`);
      } else if (matches.length === 0) {
        if (answer.status === 404 && answer.code === 'ProjectNotConnected') t.refused++;
        else violate(t, input, `expected 404 ProjectNotConnected, got ${JSON.stringify(answer)}`);
      } else {
        const named = (answer.candidates ?? []).map((label) => label.replace(/^unity:p-/, '')).sort();
        if (answer.status === 409 && answer.code === 'ProjectPinAmbiguous' && JSON.stringify(named) === JSON.stringify([...matches].sort())) t.refused++;
        else violate(t, input, `expected 409 naming ${matches.join(', ')}, got ${JSON.stringify(answer)}`);
      }
    }
  } finally {
    await Promise.allSettled([...live.values()].map((p) => p.close()));
    await junction.stop();
  }
  return [t];
}
