import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isJunctionError } from '../../../src-main/contracts/errors.js';
import { ConsoleElicitations } from '../../../src-main/mcp/console-elicitations.js';
import { SessionLogLevel } from '../../../src-main/mcp/agent-requests.js';
import { collectGarbage } from '../../reliability/scenarios/rss.js';

const call = { callId: 'c1', tool: 't', agent: 'a' };
const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] };
const code = (expected: string) => (error: unknown) => isJunctionError(error) && error.code === expected;

describe('ConsoleElicitations', () => {
  test('a pending elicitation is answered once, only with content its schema allows', async () => {
    const queue = new ConsoleElicitations('console');
    const seen: string[] = [];
    queue.events.on('pending', (p) => seen.push(`pending ${p.message}`));
    queue.events.on('resolved', () => seen.push('resolved'));
    const answer = queue.ask(call, { message: 'How many?', requestedSchema: schema }, new AbortController().signal);
    const [pending] = queue.view().pending;
    assert.ok(pending);
    await assert.rejects(queue.answer(pending.elicitationId, { action: 'accept', content: { n: 0 } }), code('ValidationFailed'));
    await queue.answer(pending.elicitationId, { action: 'accept', content: { n: 2 } });
    assert.deepEqual(await answer, { action: 'accept', content: { n: 2 } });
    await assert.rejects(queue.answer(pending.elicitationId, { action: 'decline' }), code('ResourceNotFound'));
    assert.deepEqual(seen, ['pending How many?', 'resolved']);
  });

  test('the call ending removes its elicitation; schemas MCP forbids and floods are refused', async () => {
    const queue = new ConsoleElicitations('console', 1);
    const abort = new AbortController();
    const answer = queue.ask(call, { message: 'Wait', requestedSchema: schema }, abort.signal);
    await assert.rejects(queue.ask(call, { message: 'Second', requestedSchema: schema }, new AbortController().signal), code('TooManyRequests'));
    abort.abort();
    await assert.rejects(answer, code('CallNotActive'));
    assert.equal(queue.pendingCount(), 0);
    const nested = { type: 'object', properties: { a: { type: 'object', properties: {} } } };
    await assert.rejects(queue.ask(call, { message: 'Nested', requestedSchema: nested }, new AbortController().signal), code('InvalidRequest'));
    assert.equal(queue.pendingCount(), 0);
  });

  test('answering many elicitations, each with its schema as a new object, does not grow the heap', async () => {
    const queue = new ConsoleElicitations('console');
    const answerFresh = async () => {
      // Each request parses its schema afresh, so equal schemas arrive as distinct objects.
      const answer = queue.ask(call, { message: 'How many?', requestedSchema: structuredClone(schema) }, new AbortController().signal);
      await queue.answer(queue.view().pending[0]!.elicitationId, { action: 'accept', content: { n: 1 } });
      await answer;
    };
    for (let n = 0; n < 50; n++) await answerFresh();
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 2_000; n++) await answerFresh();
    collectGarbage();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    // Compiled per object, ajv kept each one: about 5 KB an answer, 10 MB here.
    assert.ok(grownMb < 2, `2,000 answered elicitations grew the heap by ${grownMb.toFixed(1)} MB`);
  });
});

describe('SessionLogLevel', () => {
  test('everything passes until the agent sets a level, then only that level and above', () => {
    const level = new SessionLogLevel();
    assert.equal(level.allows('debug'), true);
    level.set('warning');
    assert.deepEqual((['debug', 'info', 'notice', 'warning', 'error', 'emergency'] as const).map((l) => level.allows(l)), [false, false, false, true, true, true]);
  });
});
