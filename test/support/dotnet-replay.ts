/**
 * Replays a golden transcript of the .NET McpPlugin 8.x client (test/fixtures/wire/*.json) with a raw
 * `ws` client and plain HTTP: no SignalR library, no Junction SDK, so nothing shares Junction's reading
 * of the contract. It negotiates, connects, handshakes and sends the client's invocations as written,
 * answers the server's invocations with the transcript's replies, and records every frame it receives.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

const RS = '\u001e';
const FIXTURES = fileURLToPath(new URL('../fixtures/wire/', import.meta.url));
const ANY = '{{any}}';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Exchange {
  send: JsonObject;
  expect: JsonObject;
  /** Wait this long (a number, or a placeholder the replay's options fill) before sending. */
  delayMs?: number | string;
  /** Send this in the same WebSocket message as the reply before it (a client flushing both at once). */
  sameFrame?: boolean;
}

interface Responder {
  expectArgument?: JsonObject;
  reply?: JsonObject;
  then?: Exchange;
  /** `silent`: never answer (a plugin stuck in a long operation). */
  byName?: Record<string, { reply?: JsonObject; raw?: string; silent?: boolean; then?: Exchange }>;
  otherwise?: { reply: JsonObject };
  /** Only in a transcript that extends another: tools appended to the base's RunListTool reply. */
  addTools?: JsonObject[];
}

export interface Transcript {
  connect: {
    query: Record<string, string>;
    negotiate: { method: string; path: string; extraQuery: Record<string, string>; headers: Record<string, string>; expectStatus: number; expectBody: JsonObject };
    websocket: { path: string; extraQuery: Record<string, string>; headers: Record<string, string> };
    handshake: { send: JsonObject; expect: JsonObject };
  };
  clientInvocations: Exchange[];
  serverInvocations: Record<string, Responder>;
}

interface RawTranscript extends Partial<Transcript> {
  extends?: string;
}

/** Loads a transcript, applying `extends`: client invocations are appended, server responders merged by method. */
export function loadTranscript(file: string): Transcript {
  const raw = JSON.parse(readFileSync(`${FIXTURES}${file}`, 'utf8')) as RawTranscript;
  if (!raw.extends) return raw as Transcript;
  const base = loadTranscript(raw.extends);
  const serverInvocations = { ...base.serverInvocations };
  for (const [method, override] of Object.entries(raw.serverInvocations ?? {})) {
    const merged: Responder = { ...serverInvocations[method], ...override, byName: { ...serverInvocations[method]?.byName, ...override.byName } };
    if (override.addTools && merged.reply) {
      const value = merged.reply['Value'];
      merged.reply = { ...merged.reply, Value: [...(Array.isArray(value) ? value : []), ...override.addTools] };
    }
    serverInvocations[method] = merged;
  }
  return { connect: base.connect, clientInvocations: [...base.clientInvocations, ...(raw.clientInvocations ?? [])], serverInvocations };
}

/** A PNG signature, then filler: `length` characters of valid base64 (a multiple of 4) for a captured image or blob. */
function base64Of(length: number): string {
  const head = 'iVBORw0KGgoAAAANSUhEUgAA';
  return (head + 'A'.repeat(Math.max(0, length - head.length))).slice(0, length);
}

/** `{{base64:N}}` and `{{fill:N}}` stand for captured payloads too large to keep in a fixture. */
function generated(name: string): string | undefined {
  const match = /^(base64|fill):(\d+)$/.exec(name);
  if (!match) return undefined;
  const length = Number(match[2]);
  return match[1] === 'base64' ? base64Of(length) : 'x'.repeat(length);
}

/** Fills `{{name}}` placeholders from `vars`; a string that is exactly one placeholder takes the value's type. */
function fill(template: Json, vars: Record<string, Json>): Json {
  if (typeof template === 'string') {
    const whole = /^\{\{([^}]+)\}\}$/.exec(template);
    if (whole && whole[1] !== 'any' && whole[1]! in vars) return vars[whole[1]!]!;
    // Twice, so a placeholder may size a generated one: {{base64:{{bytes}}}}.
    const once = (text: string) => text.replace(/\{\{([^{}]+)\}\}/g, (m, name: string) => (name in vars ? String(vars[name]) : (generated(name) ?? m)));
    return once(once(template));
  }
  if (Array.isArray(template)) return template.map((t) => fill(t, vars));
  if (template && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, vars)]));
  return template;
}

/** Exact structural match (same keys, same values); `{{any}}` matches any present value. Returns the first difference. */
export function difference(expected: Json | undefined, actual: unknown, path = '$'): string | undefined {
  if (expected === ANY) return actual === undefined ? `${path}: missing` : undefined;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${path}: expected an array of ${expected.length}, got ${JSON.stringify(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: expected an object, got ${JSON.stringify(actual)}`;
    const keys = Object.keys(actual);
    const extra = keys.filter((k) => !(k in expected));
    if (extra.length) return `${path}: unexpected properties ${extra.join(', ')} in ${JSON.stringify(actual)}`;
    for (const [k, v] of Object.entries(expected)) {
      const d = difference(v, (actual as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

export interface ReceivedInvocation {
  target: string;
  invocationId?: string;
  arguments: unknown[];
}

export interface DotNetReplay {
  /** Server-to-client invocations received so far, in order. */
  readonly received: ReceivedInvocation[];
  /** Transcript expectations that did not hold (wrong argument shapes, unexpected completions). */
  readonly problems: string[];
  readonly closed: Promise<{ code: number }>;
  isOpen(): boolean;
  /** Sends the transcript's client invocations in order, each awaiting and checking its completion. */
  runClientInvocations(): Promise<void>;
  /** Sends a Ping every `intervalMs`, as the .NET client's keep-alive does when it has nothing else to send. */
  keepAlive(intervalMs: number): void;
  close(): Promise<void>;
}

export async function replayDotNetClient(
  baseUrl: string,
  transcript: Transcript,
  options: { token?: string; processingDelayMs?: number; oversizedBytes?: number } = {},
): Promise<DotNetReplay> {
  const { connect } = transcript;
  const vars: Record<string, Json> = { token: options.token ?? '', processingDelayMs: options.processingDelayMs ?? 0, oversizedBytes: options.oversizedBytes ?? 0 };
  // The .NET client sends no Authorization header at all when it has no token.
  const headersOf = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).filter(([k]) => options.token || k !== 'authorization').map(([k, v]) => [k, String(fill(v, vars))]));

  const negotiateUrl = new URL(connect.negotiate.path, baseUrl);
  for (const [k, v] of Object.entries({ ...connect.query, ...connect.negotiate.extraQuery })) negotiateUrl.searchParams.set(k, v);
  const negotiated = await fetch(negotiateUrl, { method: connect.negotiate.method, headers: headersOf(connect.negotiate.headers) });
  const body = (await negotiated.json()) as JsonObject;
  if (negotiated.status !== connect.negotiate.expectStatus) throw new Error(`negotiate answered ${negotiated.status}: ${JSON.stringify(body)}`);
  const negotiateProblem = difference(connect.negotiate.expectBody, body);
  if (negotiateProblem) throw new Error(`negotiate: ${negotiateProblem}`);
  vars['connectionToken'] = body['connectionToken'] ?? '';

  const wsUrl = new URL(connect.websocket.path, baseUrl.replace(/^http/, 'ws'));
  for (const [k, v] of Object.entries({ ...connect.query, ...connect.websocket.extraQuery })) wsUrl.searchParams.set(k, String(fill(v, vars)));
  const ws = new WebSocket(wsUrl, { headers: headersOf(connect.websocket.headers) });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
  });
  const closed = new Promise<{ code: number }>((resolve) => ws.once('close', (code) => resolve({ code })));

  const received: ReceivedInvocation[] = [];
  const problems: string[] = [];
  const completions = new Map<string, (message: JsonObject) => void>();
  let nextId = 1000;
  let handshaken: (message: JsonObject) => void = () => undefined;
  const handshakeReply = new Promise<JsonObject>((resolve) => (handshaken = resolve));
  let gotHandshake = false;
  const send = (message: Json) => ws.send(JSON.stringify(message) + RS);

  async function exchange(step: Exchange, stepVars: Record<string, Json>, before?: Json): Promise<void> {
    const delay = step.delayMs === undefined ? 0 : Number(fill(step.delayMs, stepVars));
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const message = fill(step.send, stepVars) as JsonObject;
    const id = String(message['invocationId']);
    const reply = new Promise<JsonObject>((resolve) => completions.set(id, resolve));
    if (before === undefined) send(message);
    else ws.send(JSON.stringify(before) + RS + JSON.stringify(message) + RS);
    const answer = await reply;
    const problem = difference(fill(step.expect, stepVars), answer);
    if (problem) problems.push(`${String(message['target'])}: ${problem}`);
  }

  function answer(invocation: JsonObject): void {
    const target = String(invocation['target']);
    const args = Array.isArray(invocation['arguments']) ? invocation['arguments'] : [];
    const invocationId = typeof invocation['invocationId'] === 'string' ? invocation['invocationId'] : undefined;
    received.push({ target, arguments: args, ...(invocationId === undefined ? {} : { invocationId }) });
    const responder = transcript.serverInvocations[target];
    if (invocationId === undefined) return;
    if (!responder) {
      // What the .NET client answers an invocation it has no handler for.
      send({ type: 3, invocationId, error: "Client didn't provide a result." });
      return;
    }
    const request = (args[0] ?? {}) as JsonObject;
    const argumentProblem = responder.expectArgument ? difference(responder.expectArgument, request) : undefined;
    if (argumentProblem) problems.push(`${target} argument: ${argumentProblem}`);
    const requestVars: Record<string, Json> = { ...vars, invocationId, nextInvocationId: String(nextId++) };
    for (const [k, v] of Object.entries(request)) requestVars[`request.${k}`] = v;
    // Tools and prompts are answered by name, resource contents by URI.
    const name = typeof request['Name'] === 'string' ? request['Name'] : typeof request['Uri'] === 'string' ? request['Uri'] : '';
    const chosen: { reply?: JsonObject; raw?: string; silent?: boolean; then?: Exchange } | undefined =
      responder.byName?.[name] ?? (responder.reply ? { reply: responder.reply, ...(responder.then ? { then: responder.then } : {}) } : responder.otherwise);
    if (!chosen) {
      problems.push(`${target}: the transcript has no reply for '${name}'`);
      return;
    }
    if (chosen.silent) return;
    if (chosen.raw !== undefined) {
      ws.send(String(fill(chosen.raw, requestVars)) + RS);
      return;
    }
    const completion: Json = { type: 3, invocationId, result: fill(chosen.reply ?? {}, requestVars) };
    if (chosen.then?.sameFrame) {
      void exchange(chosen.then, requestVars, completion);
      return;
    }
    send(completion);
    if (chosen.then) void exchange(chosen.then, requestVars);
  }

  let buffer = '';
  ws.on('message', (data) => {
    buffer += data.toString();
    const records = buffer.split(RS);
    buffer = records.pop() ?? '';
    for (const record of records) {
      const message = JSON.parse(record) as JsonObject;
      if (!gotHandshake) {
        gotHandshake = true;
        handshaken(message);
        continue;
      }
      if (message['type'] === 1) answer(message);
      else if (message['type'] === 3) completions.get(String(message['invocationId']))?.(message);
      else if (message['type'] === 7) received.push({ target: '(close)', arguments: [message] });
    }
  });

  send(connect.handshake.send);
  const handshakeProblem = difference(connect.handshake.expect, await handshakeReply);
  if (handshakeProblem) throw new Error(`handshake: ${handshakeProblem}`);

  let pinger: NodeJS.Timeout | undefined;
  return {
    received,
    problems,
    closed,
    isOpen: () => ws.readyState === WebSocket.OPEN,
    async runClientInvocations() {
      for (const step of transcript.clientInvocations) await exchange(step, vars);
    },
    keepAlive(intervalMs) {
      pinger = setInterval(() => send({ type: 6 }), intervalMs);
    },
    async close() {
      clearInterval(pinger);
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close();
      await closed;
    },
  };
}
