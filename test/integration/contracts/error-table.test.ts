/**
 * One error model: every code gets the status and MCP answer of its kind, whichever source reports it.
 * Three real sources (a host tool source that throws, a source that returns the error as an outcome
 * the way in-process plugins do, and the bridge's own failure builder) each fail with every code in
 * turn, over `/api` and over MCP through the real SDK Client.
 */
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { bridgeFailure } from '../../../src-main/bridge/calls/index.js';
import { ANSWER_BY_KIND, ERROR_CODES, ERROR_KINDS, JunctionError, KIND_BY_CODE, errorOutcome, type ErrorCode, type ToolSource } from '../../../src-main/contracts/index.js';
import { createToolSource, defineTool } from '../../../src-main/host/tools/index.js';
import { startMcpStack } from '../../support/mcp-stack.js';

const codeArg = z.object({ code: z.enum(ERROR_CODES) });

const hostSource = createToolSource(
  'host',
  [
    defineTool({
      name: 'host-fails',
      title: 'Host fails',
      description: 'Throws the error code it is given.',
      readOnly: true,
      input: codeArg,
      output: z.object({}),
      handler: ({ code }) => {
        throw new JunctionError(code, `host says ${code}`);
      },
    }),
  ],
  'omit',
);

function singleToolSource(id: string, tool: string, fail: (code: ErrorCode) => ReturnType<typeof errorOutcome>): ToolSource {
  return {
    id,
    listTools: () => [{ name: tool, description: `Fails with the code it is given (${id}).`, inputSchema: { type: 'object', properties: { code: { type: 'string' } } } }],
    onToolsChanged: () => () => undefined,
    async callTool(_name, args) {
      return fail(codeArg.parse(args).code);
    },
  };
}

const outcomeSource = singleToolSource('plugin:fixture', 'plugin-fails', (code) => errorOutcome({ code, message: `plugin says ${code}` }));
const bridgeSource = singleToolSource('bridge', 'bridge-fails', (code) => bridgeFailure('bridge-fails', code, `bridge says ${code}`));
const TOOLS = ['host-fails', 'plugin-fails', 'bridge-fails'];

describe('one error table for every source', () => {
  let stack: Awaited<ReturnType<typeof startMcpStack>>;
  before(async () => {
    stack = await startMcpStack([hostSource, outcomeSource, bridgeSource]);
  });
  after(() => stack.close());

  it('maps every code to a kind and every kind to an HTTP error status and a JSON-RPC code', () => {
    assert.deepEqual(Object.keys(KIND_BY_CODE).sort(), [...ERROR_CODES].sort());
    for (const kind of ERROR_KINDS) {
      const answer = ANSWER_BY_KIND[kind];
      assert.ok(answer.http >= 400 && answer.http <= 599, `${kind} → ${answer.http}`);
      assert.ok([-32600, -32602, -32603].includes(answer.jsonRpc), `${kind} → ${answer.jsonRpc}`);
    }
  });

  it('answers /api with the status of the code’s kind whichever source fails', async () => {
    for (const code of ERROR_CODES) {
      const expected = ANSWER_BY_KIND[KIND_BY_CODE[code]].http;
      for (const tool of TOOLS) {
        const { status, json } = await stack.post(`/api/tools/${tool}`, JSON.stringify({ code }));
        assert.equal(status, expected, `${tool} failing with ${code}`);
        assert.equal((json['error'] as { code: string }).code, code, `${tool} failing with ${code}`);
      }
    }
  });

  it('answers refusals of the /api routes themselves with the status of their code’s kind', async () => {
    const refusals = [
      { method: 'GET', path: '/api/tools/host-fails', code: 'MethodNotAllowed', allow: 'POST' },
      { method: 'POST', path: '/api/tools', code: 'MethodNotAllowed', allow: 'GET' },
      { method: 'POST', path: '/api/tools/%E0%A4%A', code: 'InvalidArguments' },
      { method: 'POST', path: '/api/tools/no-such-tool', code: 'ToolNotFound' },
    ] as const;
    for (const refusal of refusals) {
      const response = await fetch(`${stack.base}${refusal.path}`, { method: refusal.method, headers: { 'content-type': 'application/json' }, ...(refusal.method === 'POST' ? { body: '{}' } : {}) });
      const body = (await response.json()) as { error: { code: string } };
      assert.equal(body.error.code, refusal.code, `${refusal.method} ${refusal.path}`);
      assert.equal(response.status, ANSWER_BY_KIND[KIND_BY_CODE[refusal.code]].http, `${refusal.method} ${refusal.path}`);
      if ('allow' in refusal) assert.equal(response.headers.get('allow'), refusal.allow);
    }
  });

  it('answers MCP tools/call with an isError result carrying the code whichever source fails', async () => {
    const client = await stack.connectClient();
    for (const code of ERROR_CODES) {
      for (const tool of TOOLS) {
        const result = await client.callTool({ name: tool, arguments: { code } });
        assert.equal(result.isError, true, `${tool} failing with ${code}`);
        assert.equal((result.structuredContent as { error: { code: string } }).error.code, code, `${tool} failing with ${code}`);
      }
    }
  });
});
