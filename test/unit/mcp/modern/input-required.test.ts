import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isJunctionError, JunctionError, type AgentRequests, type ToolOutcome } from '../../../../src-main/contracts/index.js';
import { InputRequiredCalls, type CallOwner, type CallStart } from '../../../../src-main/mcp/modern/input-required.js';
import { RequestStateSeal } from '../../../../src-main/mcp/modern/request-state.js';

const owner: CallOwner = { subject: 'tools/call t', key: 'pin\nagent' };
const schema = { type: 'object', properties: { name: { type: 'string' } } };
const accept = (name: string) => ({ action: 'accept', content: { name } });

function calls(): InputRequiredCalls {
  return new InputRequiredCalls({ seal: new RequestStateSeal(), ttlMs: 60_000, maxParked: 8 });
}

function start<T>(overrides: Partial<CallStart<T>> = {}): CallStart<T> {
  return { owner, capabilities: { elicitation: {}, sampling: {}, roots: {} }, takesTasks: false, inputResponses: undefined, failed: () => false, ...overrides };
}

const code = (expected: string) => (error: unknown) => isJunctionError(error) && error.code === expected;
/** What a question ended in: its answer, or its JunctionError's code. */
const settled = (asked: Promise<unknown>) => asked.then((answer) => ({ answer }), (error: unknown) => ({ code: isJunctionError(error) ? error.code : String(error) }));

test("a question is shown under its plugin's key; unnamed ones are numbered by kind, past keys already open", async () => {
  const store = calls();
  const hangUp = new AbortController().signal;
  let asked: Array<Promise<unknown>> = [];
  const step = await store.start(start(), hangUp, async (requests: AgentRequests, signal) => {
    asked = [requests.elicit({ message: 'Named', requestedSchema: schema }, signal, 'elicitation-1'), requests.elicit({ message: 'Unnamed', requestedSchema: schema }, signal), requests.listRoots(signal)];
    return Promise.all(asked);
  });
  assert.equal(step.kind, 'input');
  assert.ok(step.kind === 'input');
  assert.deepEqual(Object.keys(step.inputRequests), ['elicitation-1', 'elicitation-2', 'roots-3']);
  assert.deepEqual(step.inputRequests['roots-3'], { method: 'roots/list', params: {} });
  const done = await store.resume(owner, step.requestState, { 'elicitation-1': accept('a'), 'elicitation-2': accept('b'), 'roots-3': { roots: [{ uri: 'file:///r' }] } }, hangUp);
  assert.equal(done.kind, 'done');
  assert.deepEqual(await Promise.all(asked), [accept('a'), accept('b'), { roots: [{ uri: 'file:///r' }] }]);
});

test('a second open question under one key is refused InvalidRequest; the first stays open and is answered', async () => {
  const store = calls();
  const hangUp = new AbortController().signal;
  let second: Promise<{ answer: unknown } | { code: string }> | undefined;
  const step = await store.start(start(), hangUp, async (requests, signal) => {
    const first = requests.elicit({ message: 'First', requestedSchema: schema }, signal, 'same');
    second = settled(requests.elicit({ message: 'Second', requestedSchema: schema }, signal, 'same'));
    return first;
  });
  assert.ok(step.kind === 'input');
  assert.deepEqual(step.inputRequests['same']?.params['message'], 'First');
  assert.deepEqual(await second, { code: 'InvalidRequest' });
  const done = await store.resume<unknown>(owner, step.requestState, { same: accept('one') }, hangUp);
  assert.deepEqual(done, { kind: 'done', outcome: accept('one') });
});

test('answers sent ahead answer the first turn by key, once; an invalid one is asked; the rest are forgotten after the first turn', async () => {
  const store = calls();
  const hangUp = new AbortController().signal;
  const answers: unknown[] = [];
  const step = await store.start(start({ inputResponses: { a: accept('ahead'), b: 12345, later: accept('too early') } }), hangUp, async (requests, signal) => {
    answers.push(await requests.elicit({ message: 'A', requestedSchema: schema }, signal, 'a'));
    answers.push(await requests.elicit({ message: 'B', requestedSchema: schema }, signal, 'b'));
    answers.push(await requests.elicit({ message: 'Later', requestedSchema: schema }, signal, 'later'));
    return answers;
  });
  assert.ok(step.kind === 'input');
  assert.deepEqual(Object.keys(step.inputRequests), ['b'], 'a was answered ahead; b was not a valid answer');
  const next = await store.resume(owner, step.requestState, { b: accept('b') }, hangUp);
  assert.ok(next.kind === 'input');
  assert.deepEqual(Object.keys(next.inputRequests), ['later'], 'an answer sent ahead does not outlive the first turn');
  const done = await store.resume(owner, next.requestState, { later: accept('late') }, hangUp);
  assert.deepEqual(done, { kind: 'done', outcome: [accept('ahead'), accept('b'), accept('late')] });
});

test('answers sent ahead that are not an object are refused before anything runs', () => {
  let ran = false;
  assert.throws(
    () =>
      calls().start(start({ inputResponses: ['a'] }), new AbortController().signal, async () => {
        ran = true;
      }),
    code('InvalidArguments'),
  );
  assert.equal(ran, false);
});

test("a state resumes only the request it was issued for: another subject, another agent's key", async () => {
  const store = calls();
  const hangUp = new AbortController().signal;
  const step = await store.start(start({ owner: { subject: 'prompts/get p', key: owner.key } }), hangUp, (requests, signal) => requests.elicit({ message: 'Q', requestedSchema: schema }, signal, 'q'));
  assert.ok(step.kind === 'input');
  assert.throws(() => store.resume({ subject: 'tools/call p', key: owner.key }, step.requestState, { q: accept('x') }, hangUp), code('RequestStateInvalid'));
  assert.throws(() => store.resume({ subject: 'prompts/get p', key: 'pin\nother' }, step.requestState, { q: accept('x') }, hangUp), code('RequestStateInvalid'));
  const done = await store.resume({ subject: 'prompts/get p', key: owner.key }, step.requestState, { q: accept('x') }, hangUp);
  assert.equal(done.kind, 'done');
  store.close();
});

test('a request that throws: after a question for an undeclared capability it is that capability; otherwise the error itself', async () => {
  const hangUp = new AbortController().signal;
  const rootless = await calls().start(start({ capabilities: { elicitation: {} } }), hangUp, async (requests, signal) => {
    await requests.listRoots(signal);
    return 'unreached';
  });
  assert.deepEqual(rootless, { kind: 'missingCapability', capabilities: { roots: {} } });
  await assert.rejects(
    calls().start(start(), hangUp, async () => {
      throw new JunctionError('PromptNotFound', 'gone');
    }),
    code('PromptNotFound'),
  );
  // A failed outcome (a tool result with isError) counts as a failure as well.
  const failedTool = await calls().start(start({ capabilities: {}, failed: (outcome: string) => outcome === 'failed' }), hangUp, async (requests, signal) =>
    requests.sample({ messages: [], maxTokens: 1 }, signal).then(
      () => 'ok',
      () => 'failed',
    ),
  );
  assert.deepEqual(failedTool, { kind: 'missingCapability', capabilities: { sampling: {} } });
});

const ok: ToolOutcome = { result: { content: [{ type: 'text', text: 'done' }] } };

/** Starts a call whose work waits until `release` runs, and reports the signal and agent requests it ran with. */
function startCall(store: InputRequiredCalls, capabilities: Record<string, unknown>, takesTasks: boolean, hangUp: AbortSignal) {
  let release!: () => void;
  let seen!: { signal: AbortSignal; requests: AgentRequests };
  const step = store.start(start<ToolOutcome>({ capabilities, takesTasks }), hangUp, (requests, signal) => {
    seen = { signal, requests };
    return new Promise<ToolOutcome>((resolve) => (release = () => resolve(ok)));
  });
  return { step, seen: () => seen, release: () => release() };
}

test('a call that can never be parked runs on its request’s hang-up signal; one that can gets a signal of its own', async () => {
  const store = calls();
  const hangUp = new AbortController();
  const plain = startCall(store, {}, false, hangUp.signal);
  assert.equal(plain.seen().signal, hangUp.signal, 'no capability a question could use, no tasks: the request is the call');
  for (const [capabilities, takesTasks] of [[{ elicitation: {} }, false], [{ sampling: {} }, false], [{ roots: {} }, false], [{}, true]] as const) {
    const parkable = startCall(store, capabilities, takesTasks, hangUp.signal);
    assert.notEqual(parkable.seen().signal, hangUp.signal, JSON.stringify({ capabilities, takesTasks }));
    parkable.release();
    assert.equal((await parkable.step).kind, 'done');
  }
  plain.release();
  assert.deepEqual(await plain.step, { kind: 'done', outcome: ok });
  store.close();
});

test('either way the agent hanging up cancels the running call, and a question for an undeclared capability still ends as -32021', async () => {
  const store = calls();
  for (const capabilities of [{}, { elicitation: {} }]) {
    const hangUp = new AbortController();
    const call = startCall(store, capabilities, false, hangUp.signal);
    hangUp.abort();
    assert.equal(call.seen().signal.aborted, true, JSON.stringify(capabilities));
    call.release();
    await call.step;
  }
  const asking = store.start(start<ToolOutcome>({ capabilities: {}, failed: (outcome) => outcome.result.isError === true }), new AbortController().signal, async (requests) => {
    await requests.sample({ messages: [] }, new AbortController().signal).catch(() => undefined);
    return { result: { content: [], isError: true } };
  });
  assert.deepEqual(await asking, { kind: 'missingCapability', capabilities: { sampling: {} } });
  store.close();
});

test('malformed inputResponses are refused InvalidArguments before the call runs, whether or not it can park', async () => {
  for (const capabilities of [{ elicitation: {} }, {}]) {
    let ran = false;
    await assert.rejects(
      async () =>
        calls().start(start({ capabilities, inputResponses: ['not', 'keyed'] }), new AbortController().signal, async () => {
          ran = true;
          return 'ran';
        }),
      code('InvalidArguments'),
      JSON.stringify(capabilities),
    );
    assert.equal(ran, false);
  }
});
