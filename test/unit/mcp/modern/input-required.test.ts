import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentRequests, ToolOutcome } from '../../../../src-main/contracts/index.js';
import { InputRequiredCalls } from '../../../../src-main/mcp/modern/input-required.js';
import { RequestStateSeal } from '../../../../src-main/mcp/modern/request-state.js';

const owner = { tool: 'bake', key: 'pin\nagent' };
const ok: ToolOutcome = { result: { content: [{ type: 'text', text: 'done' }] } };

/** Starts a call whose work waits until `release` runs, and reports the signal and agent requests it ran with. */
function startCall(calls: InputRequiredCalls, capabilities: Record<string, unknown>, takesTasks: boolean, hangUp: AbortSignal) {
  let release!: () => void;
  let seen!: { signal: AbortSignal; requests: AgentRequests };
  const step = calls.start(owner, capabilities, takesTasks, hangUp, (requests, signal) => {
    seen = { signal, requests };
    return new Promise<ToolOutcome>((resolve) => (release = () => resolve(ok)));
  });
  return { step, seen: () => seen, release: () => release() };
}

test('a call that can never be parked runs on its request’s hang-up signal; one that can gets a signal of its own', async () => {
  const calls = new InputRequiredCalls({ seal: new RequestStateSeal(), ttlMs: 60_000, maxParked: 4 });
  const hangUp = new AbortController();
  const plain = startCall(calls, {}, false, hangUp.signal);
  assert.equal(plain.seen().signal, hangUp.signal, 'no capability a question could use, no tasks: the request is the call');
  for (const [capabilities, takesTasks] of [[{ elicitation: {} }, false], [{ sampling: {} }, false], [{ roots: {} }, false], [{}, true]] as const) {
    const parkable = startCall(calls, capabilities, takesTasks, hangUp.signal);
    assert.notEqual(parkable.seen().signal, hangUp.signal, JSON.stringify({ capabilities, takesTasks }));
    parkable.release();
    assert.equal((await parkable.step).kind, 'done');
  }
  plain.release();
  assert.deepEqual(await plain.step, { kind: 'done', outcome: ok });
  calls.close();
});

test('either way the agent hanging up cancels the running call, and a question for an undeclared capability still ends as -32021', async () => {
  const calls = new InputRequiredCalls({ seal: new RequestStateSeal(), ttlMs: 60_000, maxParked: 4 });
  for (const capabilities of [{}, { elicitation: {} }]) {
    const hangUp = new AbortController();
    const call = startCall(calls, capabilities, false, hangUp.signal);
    hangUp.abort();
    assert.equal(call.seen().signal.aborted, true, JSON.stringify(capabilities));
    call.release();
    await call.step;
  }
  const asking = calls.start(owner, {}, false, new AbortController().signal, async (requests) => {
    await requests.sample({ messages: [] }, new AbortController().signal).catch(() => undefined);
    return { result: { content: [], isError: true } };
  });
  assert.deepEqual(await asking, { kind: 'missingCapability', capabilities: { sampling: {} } });
  calls.close();
});
