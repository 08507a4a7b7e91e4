import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { jsonSchemaOf, publishedBy, type ToolContext, type ToolDefinition } from '../../../../plugins/sdk/src/definitions.js';
import { runPrompt, runTool } from '../../../../plugins/sdk/src/dispatch.js';
import { AgentRequestError, ToolUnavailableError } from '../../../../plugins/sdk/index.js';
import { ResponseErrorKind, ResponseStatus } from '../../../../plugins/sdk/wire/index.js';

const noAgent = () => Promise.reject(new AgentRequestError('CapabilityUnavailable', 'no agent in this unit test'));
const ctx: ToolContext = { requestId: 'r', signal: new AbortController().signal, progress: () => undefined, log: () => undefined, elicit: noAgent, sample: noAgent, listRoots: noAgent, processing: () => undefined };

function define(handler: ToolDefinition['handler'], input: ToolDefinition['input'] = z.object({ n: z.number() })): ToolDefinition {
  return { name: 't', description: 'd', input, handler };
}

const call = (args: Record<string, unknown>) => ({ requestId: 'r', name: 't', arguments: args });

describe('runTool', () => {
  test('arguments that do not parse are BadRequest 400 and the handler is not run', async () => {
    let ran = false;
    const reply = await runTool(
      define(() => {
        ran = true;
      }),
      call({ n: 'x' }),
      ctx,
    );
    assert.equal(ran, false);
    assert.equal(reply.status, ResponseStatus.Error);
    assert.equal(reply.value?.errorKind, ResponseErrorKind.BadRequest);
    assert.equal(reply.value?.httpStatusCode, 400);
    assert.match(reply.message ?? '', /^Invalid arguments for 't': n: /);
  });

  test('a thrown Error is BadRequest 422 with its message', async () => {
    const reply = await runTool(
      define(() => {
        throw new Error('no such object');
      }),
      call({ n: 1 }),
      ctx,
    );
    assert.equal(reply.value?.errorKind, ResponseErrorKind.BadRequest);
    assert.equal(reply.value?.httpStatusCode, 422);
    assert.equal(reply.message, 'no such object');
    assert.deepEqual(reply.value?.content, [{ type: 'text', text: 'no such object' }]);
  });

  test('ToolUnavailableError is Unavailable and carries notExecuted only when asked', async () => {
    const notRun = await runTool(
      define(() => {
        throw new ToolUnavailableError('compiling', { notExecuted: true });
      }),
      call({ n: 1 }),
      ctx,
    );
    assert.equal(notRun.value?.errorKind, ResponseErrorKind.Unavailable);
    assert.equal(notRun.value?.notExecuted, true);
    const maybeRun = await runTool(
      define(() => {
        throw new ToolUnavailableError('service down');
      }),
      call({ n: 1 }),
      ctx,
    );
    assert.equal(maybeRun.value?.notExecuted, undefined);
  });

  test('return values become content, or structured content sent once (the bridge adds its JSON text)', async () => {
    const text = await runTool(define(() => 'hello'), call({ n: 1 }), ctx);
    assert.deepEqual(text.value?.content, [{ type: 'text', text: 'hello' }]);
    assert.equal(text.value?.structuredContent, undefined);
    const structured = await runTool(define(({ n }) => ({ doubled: (n as number) * 2 })), call({ n: 2 }), ctx);
    assert.deepEqual(structured.value?.structuredContent, { doubled: 4 });
    assert.deepEqual(structured.value?.content, [], 'a structured value crosses the hub once');
    const list = await runTool(define(() => [1, 2]), call({ n: 1 }), ctx);
    assert.deepEqual(list.value?.structuredContent, { result: [1, 2] });
  });

  test('a JSON Schema input is passed through unparsed (the bridge validates it)', async () => {
    const reply = await runTool(define((args) => ({ echo: args }), { type: 'object', properties: { n: { type: 'number' } } }), call({ n: 'x' }), ctx);
    assert.deepEqual(reply.value?.structuredContent, { echo: { n: 'x' } });
  });

  test('an output that breaks a zod output schema is an Internal 500', async () => {
    const reply = await runTool({ ...define(() => ({ total: 'many' })), output: z.object({ total: z.number() }) }, call({ n: 1 }), ctx);
    assert.equal(reply.value?.errorKind, ResponseErrorKind.Internal);
    assert.equal(reply.value?.httpStatusCode, 500);
  });
});

describe('definitions', () => {
  test('an editor publishes editor and both tools, a runtime runtime and both', () => {
    assert.equal(publishedBy(undefined, 'editor'), true);
    assert.equal(publishedBy('runtime', 'editor'), false);
    assert.equal(publishedBy('runtime', 'runtime'), true);
    assert.equal(publishedBy('editor', 'runtime'), false);
  });

  test('zod inputs publish as JSON Schema objects without the dialect marker', () => {
    const schema = jsonSchemaOf(z.object({ limit: z.number().int().min(0).nullable().default(20) }));
    assert.equal(schema['type'], 'object');
    assert.equal(schema['$schema'], undefined);
    assert.ok((schema['properties'] as Record<string, unknown>)['limit']);
  });

  test('a prompt checks its required arguments', async () => {
    const prompt = { name: 'p', arguments: [{ name: 'focus', required: true }], handler: ({ focus }: Record<string, string>) => `focus on ${focus}` };
    const missing = await runPrompt(prompt, 'r', {}, ctx);
    assert.equal(missing.errorKind, ResponseErrorKind.BadRequest);
    const ok = await runPrompt(prompt, 'r', { focus: 'cubes' }, ctx);
    assert.deepEqual(ok.value?.messages, [{ role: 0, content: { type: 'text', text: 'focus on cubes' } }]);
  });
});
