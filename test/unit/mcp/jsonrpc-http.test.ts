import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { parseJsonRpcBody } from '../../../src-main/mcp/jsonrpc-http.js';

const odd = fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.integer(), fc.string(), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }));
/** Values shaped like JSON-RPC messages, valid and not, with the keys the fast path looks at. */
const messageLike = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), odd),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.constant(2 ** 60), odd),
    method: fc.oneof(fc.constantFrom('ping', 'tools/call', 'initialize', 'notifications/initialized'), odd),
    params: fc.oneof(
      fc.record({ name: fc.string(), arguments: odd }),
      fc.record({ _meta: fc.oneof(fc.record({ progressToken: fc.oneof(fc.integer(), fc.string(), fc.double()) }), odd) }),
      // 2026-07-28 requests carry _meta on every call; a related task is the SDK schema's to check.
      fc.record(
        {
          _meta: fc.record(
            { 'io.modelcontextprotocol/protocolVersion': fc.oneof(fc.string(), odd), 'io.modelcontextprotocol/related-task': fc.oneof(fc.record({ taskId: fc.string() }), odd), progressToken: fc.oneof(fc.integer(), fc.string(), fc.double(), odd) },
            { requiredKeys: ['io.modelcontextprotocol/protocolVersion'] },
          ),
          name: fc.string(),
        },
        { requiredKeys: ['_meta'] },
      ),
      odd,
    ),
    result: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }), odd),
    error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), odd),
    extra: odd,
  },
  { requiredKeys: [] },
);

describe('reading a /mcp body as JSON-RPC', () => {
  test('accepts exactly the messages the SDK schema accepts (the fast path never lets through what the SDK would drop)', () => {
    fc.assert(
      fc.property(messageLike, (message) => {
        const read = parseJsonRpcBody(Buffer.from(JSON.stringify(message)));
        assert.equal(read.ok, JSONRPCMessageSchema.safeParse(JSON.parse(JSON.stringify(message))).success, JSON.stringify(message));
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  test('a batch is read when every message in it is one; broken JSON is -32700, other JSON -32600', () => {
    const batch = parseJsonRpcBody(Buffer.from('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]'));
    assert.ok(batch.ok && batch.batch && batch.messages.length === 2);
    const mixed = parseJsonRpcBody(Buffer.from('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1.5,"method":"ping"}]'));
    assert.deepEqual(mixed.ok ? undefined : mixed.code, -32600);
    const broken = parseJsonRpcBody(Buffer.from('{"jsonrpc":'));
    assert.deepEqual(broken.ok ? undefined : broken.code, -32700);
  });
});
