import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestJunction } from '../support/junction-harness.js';
import { endAgent, openAgent } from './scenarios/agent.js';
import { callOutcome } from './scenarios/outcome.js';

test('a call answered with a protocol error carrying a structured error counts as answered, not lost', async () => {
  const junction = await startTestJunction();
  const agent = await openAgent(junction.baseUrl);
  try {
    // Over MCP an unknown tool is a JSON-RPC error (-32602) whose data is Junction's structured error.
    const outcome = await callOutcome(agent, 'no-such-tool', {}, 10_000);
    assert.equal(outcome.kind, 'structured-error');
    assert.equal(outcome.kind === 'structured-error' ? outcome.code : undefined, 'ToolNotFound');
  } finally {
    await endAgent(agent);
    await junction.stop();
  }
});
