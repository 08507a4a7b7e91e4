/**
 * Fuzz scenarios shared by test/reliability/fuzz.test.ts and the reliability report: hostile hub
 * frames, JSON-RPC bodies on /mcp, /api/tools requests, host tool arguments and access attempts.
 * Each returns a tally; a violation is a crash, a hang or an unstructured failure.
 */
import fc from 'fast-check';
import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ERROR_CODES } from '../../../src-main/contracts/errors.js';
import { RawClient, RS } from '../../integration/bridge/signalr/hub-harness.js';
import { tally, violate, type AttackTally } from './attacks.js';
import { loneSurrogate, oddValue, randomObject, rawBody, sample, surrogateString } from './fuzz-inputs.js';
import { classifyResult } from './outcome.js';
import { argumentsFor } from './schema-shaped.js';

export const FUZZ_MAX_FRAME_BYTES = 64 * 1024;
export const FUZZ_MAX_BODY_BYTES = 64 * 1024;
const ANSWER_WITHIN_MS = 5000;
const KNOWN_CODES = new Set<string>(ERROR_CODES);

interface HttpReply {
  status: number;
  contentType: string;
  body: string;
}

/** A raw request, so the fuzzer controls every header and byte (fetch would normalise them). */
export function rawRequest(port: number, path: string, headers: Record<string, string>, body?: string | Buffer, method = 'POST'): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers }, timeout: ANSWER_WITHIN_MS * 2 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer (timeout)')));
    req.on('error', reject);
    req.end(body);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isStructuredErrorBody(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const error = (value as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && KNOWN_CODES.has(code) && typeof message === 'string';
}

// ---------------------------------------------------------------- hub frames

type HubVerdict = 'refused' | 'accepted' | 'no-answer';

/** Sends one record on a fresh handshaken connection, then a probe invocation: the server must answer it or close. */
async function hubVerdict(wsUrl: string, frame: string | Buffer): Promise<HubVerdict> {
  const raw = await RawClient.open(`${wsUrl}?client_role=editor`);
  const timer = new Promise<HubVerdict>((resolve) => setTimeout(() => resolve('no-answer'), ANSWER_WITHIN_MS).unref());
  try {
    await raw.handshake();
    if (typeof frame === 'string') raw.send(frame);
    else raw.ws.send(frame, { binary: true });
    raw.send(`{"type":1,"invocationId":"probe","target":"NoSuchProbeMethod","arguments":[]}${RS}`);
    const read = (async (): Promise<HubVerdict> => {
      let refused = false;
      for (;;) {
        let record: Record<string, unknown>;
        try {
          record = await raw.next();
        } catch {
          return 'refused';
        }
        if (record.type === 7) return 'refused';
        if (record.type === 3 && record.invocationId === 'probe') return refused ? 'refused' : 'accepted';
        if (record.type === 3 && typeof record.error === 'string') refused = true;
      }
    })();
    return await Promise.race([read, timer]);
  } finally {
    raw.close();
  }
}

const HUB_TARGETS = ['PerformVersionHandshake', 'NotifyAboutUpdatedTools', 'NotifyToolRequestCompleted', 'NotifyToolProgress', 'NotifyLog', 'GetMcpServerData', 'GetMcpClientData'];

const invocationShaped = fc.record({
  type: fc.oneof(fc.constantFrom(1, 2, 3, 4, 5, 6, 7), fc.integer(), oddValue),
  invocationId: fc.option(fc.oneof(fc.string(), oddValue), { nil: undefined }),
  target: fc.oneof(fc.constantFrom(...HUB_TARGETS), fc.string(), oddValue),
  arguments: fc.oneof(fc.array(oddValue, { maxLength: 4 }), oddValue),
}, { requiredKeys: ['type'] });

export function hubCategories(runs: number): { category: string; frames: (string | Buffer)[] }[] {
  return [
    { category: 'hub: malformed records', frames: sample(fc.string({ maxLength: 200 }), runs, 1).map((s) => `${s}${RS}`) },
    { category: 'hub: random JSON records', frames: sample(fc.json(), runs, 2).map((s) => `${s}${RS}`) },
    { category: 'hub: invocation-shaped, odd values', frames: sample(invocationShaped, runs, 3).map((r) => `${JSON.stringify(r)}${RS}`) },
    {
      category: 'hub: lone surrogates',
      frames: sample(fc.tuple(fc.constantFrom(...HUB_TARGETS), surrogateString), runs, 4).map(([target, s]) => `{"type":1,"invocationId":"x","target":"${target}","arguments":["${s}"]}${RS}`),
    },
    {
      category: 'hub: oversized frames',
      frames: sample(fc.integer({ min: FUZZ_MAX_FRAME_BYTES + 1, max: FUZZ_MAX_FRAME_BYTES * 3 }), Math.max(3, Math.ceil(runs / 10)), 5).map(
        (size) => `{"type":1,"target":"NotifyLog","arguments":["${'x'.repeat(size)}"]}${RS}`,
      ),
    },
    { category: 'hub: binary frames', frames: sample(fc.uint8Array({ minLength: 1, maxLength: 64 }), Math.max(3, Math.ceil(runs / 10)), 6).map((b) => Buffer.from(b)) },
  ];
}

export async function fuzzHub(hubUrl: string, runs: number, healthy: () => Promise<boolean>): Promise<AttackTally[]> {
  const wsUrl = hubUrl.replace(/^http/, 'ws');
  const tallies: AttackTally[] = [];
  for (const { category, frames } of hubCategories(runs)) {
    const t = tally(category);
    for (const frame of frames) {
      t.tried++;
      const verdict = await hubVerdict(wsUrl, frame).catch(() => 'no-answer' as const);
      if (verdict === 'no-answer') violate(t, typeof frame === 'string' ? frame.slice(0, 120) : '<binary>', 'no answer and no close');
      else t[verdict]++;
    }
    if (!(await healthy())) violate(t, category, 'a healthy plugin stopped being served');
    tallies.push(t);
  }
  return tallies;
}

// ---------------------------------------------------------------- /mcp JSON-RPC

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function jsonRpcMessages(reply: HttpReply): unknown[] | undefined {
  if (reply.body.trim() === '') return [];
  if (reply.contentType.includes('text/event-stream')) {
    const data = reply.body.split('\n').filter((l) => l.startsWith('data:')).map((l) => parseJson(l.slice(5)));
    return data.includes(undefined) ? undefined : data;
  }
  const parsed = parseJson(reply.body);
  if (parsed === undefined) return undefined;
  return Array.isArray(parsed) ? parsed : [parsed];
}

const isJsonRpc = (m: unknown) => typeof m === 'object' && m !== null && (m as { jsonrpc?: unknown }).jsonrpc === '2.0' && ('result' in m || 'error' in m || 'method' in m);

const jsonRpcShaped = fc.record({
  jsonrpc: fc.oneof(fc.constant('2.0'), oddValue),
  id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), oddValue),
  method: fc.oneof(fc.constantFrom('initialize', 'ping', 'tools/list', 'tools/call', 'prompts/get', 'resources/read', 'notifications/initialized', 'notifications/cancelled', 'logging/setLevel'), fc.string()),
  params: fc.oneof(randomObject, fc.record({ name: fc.oneof(fc.constantFrom('server-status', 'document-read', 'workspace-status'), fc.string()), arguments: oddValue }), oddValue),
}, { requiredKeys: [] });

export function mcpBodies(runs: number): string[] {
  return [
    ...sample(rawBody, runs, 11),
    ...sample(jsonRpcShaped, runs, 12).map((m) => JSON.stringify(m)),
    ...sample(fc.array(jsonRpcShaped, { minLength: 1, maxLength: 3 }), Math.ceil(runs / 4), 13).map((m) => JSON.stringify(m)),
    ...sample(loneSurrogate, Math.ceil(runs / 4), 14).map((s) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"server-status","arguments":{"x":"${s}"}}}`),
  ];
}

async function openSession(port: number): Promise<string> {
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzzer', version: '1.0.0' } } };
  const reply = await new Promise<{ session: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...MCP_HEADERS, host: `127.0.0.1:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ session: String(res.headers['mcp-session-id'] ?? '') }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(init));
  });
  await rawRequest(port, '/mcp', { ...MCP_HEADERS, 'mcp-session-id': reply.session, 'mcp-protocol-version': '2025-06-18' }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return reply.session;
}

export async function fuzzMcp(port: number, runs: number): Promise<AttackTally[]> {
  const session = await openSession(port);
  const tallies: AttackTally[] = [];
  for (const [category, headers] of [
    ['mcp: JSON-RPC without a session', MCP_HEADERS],
    ['mcp: JSON-RPC in a live session', { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }],
  ] as const) {
    const t = tally(category);
    for (const body of mcpBodies(runs)) {
      t.tried++;
      const reply = await rawRequest(port, '/mcp', headers, body).catch((error: unknown) => ({ status: 0, contentType: '', body: String(error) }));
      const messages = jsonRpcMessages(reply);
      if (reply.status === 0) violate(t, body, `no HTTP answer (${reply.body})`);
      else if (reply.status >= 500 && !messages?.length) violate(t, body, `HTTP ${reply.status} without a JSON-RPC body: ${reply.body.slice(0, 80)}`);
      else if (messages === undefined || !messages.every(isJsonRpc)) violate(t, body, `HTTP ${reply.status} with a body that is not JSON-RPC: ${reply.body.slice(0, 80)}`);
      else if (reply.status >= 400 || messages.some((m) => 'error' in (m as object) || (m as { result?: { isError?: unknown } }).result?.isError === true)) t.refused++;
      else t.accepted++;
    }
    tallies.push(t);
  }
  return tallies;
}

// ---------------------------------------------------------------- /api/tools/{name}

/** The statuses DESIGN.md maps tool failures to, plus the transport refusals (405, 413, 415). */
const MAPPED_STATUSES = new Set([400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 503, 504]);

export async function fuzzApi(port: number, runs: number, toolNames: string[]): Promise<AttackTally[]> {
  const names = sample(fc.oneof(fc.constantFrom(...toolNames), fc.string({ minLength: 1 }).map(encodeURIComponent), fc.constantFrom('%E0%A4%A', '%00', '..%2F..%2Fetc', '%ED%A0%80', 'a'.repeat(300))), runs, 21);
  const bodies = sample(fc.oneof({ arbitrary: rawBody, weight: 3 }, { arbitrary: fc.constant('x'.repeat(FUZZ_MAX_BODY_BYTES + 10)), weight: 1 }), runs, 22);
  const byKind = { names: tally('api: unknown or odd tool names'), bodies: tally('api: invalid JSON and odd bodies') };
  for (let i = 0; i < runs; i++) {
    const name = names[i] as string;
    const t = toolNames.includes(name) ? byKind.bodies : byKind.names;
    const body = bodies[i] as string;
    t.tried++;
    const reply = await rawRequest(port, `/api/tools/${name}`, { 'content-type': 'application/json' }, body).catch((error: unknown) => ({ status: 0, contentType: '', body: String(error) }));
    const parsed = parseJson(reply.body);
    if (reply.status === 200) t.accepted++;
    else if (!isStructuredErrorBody(parsed)) violate(t, { name, body: body.slice(0, 60) }, `HTTP ${reply.status} without { error: { code, message } }: ${reply.body.slice(0, 80)}`);
    else if (!MAPPED_STATUSES.has(reply.status)) violate(t, { name, body: body.slice(0, 60) }, `HTTP ${reply.status} is not a mapped status (${reply.body.slice(0, 120)})`);
    else t.refused++;
  }
  return [byKind.names, byKind.bodies];
}

// ---------------------------------------------------------------- host tool arguments

/** `round` picks fresh inputs: round r of a repeated run draws other seeds than round r - 1. */
export async function fuzzHostTools(agent: Client, runsPerTool: number, isHostTool: (name: string) => boolean, round = 0): Promise<AttackTally[]> {
  const { tools } = await agent.listTools();
  const random = tally('host tools: random JSON arguments');
  const shaped = tally('host tools: schema-shaped mutations');
  let salt = 100 + round * 10_000;
  for (const tool of tools.filter((t) => isHostTool(t.name))) {
    salt++;
    const inputs: [AttackTally, Record<string, unknown>][] = [
      ...sample(randomObject, runsPerTool, salt).map((a) => [random, a] as [AttackTally, Record<string, unknown>]),
      ...sample(argumentsFor(tool.inputSchema as Record<string, unknown>), runsPerTool, salt + 1000).map((a) => [shaped, a] as [AttackTally, Record<string, unknown>]),
    ];
    for (const [t, args] of inputs) {
      t.tried++;
      const started = Date.now();
      const outcome = await agent
        .callTool({ name: tool.name, arguments: args }, undefined, { timeout: 30_000 })
        .then((result) => classifyResult(result, Date.now() - started))
        .catch((error: unknown) => ({ kind: 'transport-error' as const, message: String(error), ms: Date.now() - started }));
      if (outcome.kind === 'result') t.accepted++;
      else if (outcome.kind === 'structured-error') t.refused++;
      else if (outcome.kind === 'transport-error' && /-32602|-32603|Invalid|MCP error/.test(outcome.message) && !/Connection closed|fetch failed/.test(outcome.message)) t.refused++;
      else violate(t, { tool: tool.name, args }, outcome.kind === 'transport-error' ? outcome.message.slice(0, 120) : 'an unstructured error result');
    }
  }
  return [random, shaped];
}

// ---------------------------------------------------------------- access (token mode)

export async function fuzzAccess(port: number, token: string, runs: number): Promise<AttackTally[]> {
  const tokens = tally('access: wrong or odd bearer tokens');
  const origins = tally('access: foreign Host and Origin headers');
  const paths = ['/mcp', '/api/tools/server-status', '/api/tools'];
  const badTokens = sample(fc.oneof(fc.string(), fc.constant(token.slice(0, -1)), fc.constant(`${token}x`), fc.constant(token.toUpperCase())).filter((t) => t !== token), runs, 31);
  const asciiHeader = (s: string) => s.replace(/[^\x21-\x7e]/g, '');
  for (const [i, bad] of badTokens.entries()) {
    tokens.tried++;
    const reply = await rawRequest(port, paths[i % paths.length] as string, { 'content-type': 'application/json', accept: MCP_HEADERS.accept, authorization: `Bearer ${asciiHeader(bad)}` }, '{}');
    if ((reply.status === 401 || reply.status === 403) && isStructuredErrorBody(parseJson(reply.body))) tokens.refused++;
    else violate(tokens, bad, `HTTP ${reply.status} (${reply.body.slice(0, 80)})`);
  }
  const hostile = sample(fc.record({ host: fc.oneof(fc.domain(), fc.constant('evil.example'), fc.constant(`127.0.0.1:${port + 1}`)), origin: fc.option(fc.oneof(fc.domain().map((d) => `http://${d}`), fc.constantFrom('null', 'http://evil.example', `http://127.0.0.1:${port + 1}`)), { nil: undefined }) }), runs, 32);
  for (const [i, h] of hostile.entries()) {
    origins.tried++;
    const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${token}`, host: h.host };
    if (h.origin) headers.origin = h.origin;
    const reply = await rawRequest(port, paths[i % paths.length] as string, headers, '{}');
    if (reply.status === 403 && isStructuredErrorBody(parseJson(reply.body))) origins.refused++;
    else violate(origins, h, `HTTP ${reply.status} (${reply.body.slice(0, 80)})`);
  }
  return [tokens, origins];
}
