import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CallToolRequestSchema, JSONRPCMessageSchema, JSONRPCRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isPlainToolCall, parseJsonRpcBody } from '../../../src-main/mcp/jsonrpc-http.js';

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

/** tools/call requests, well formed and not, with the params keys the SDK's schema and Protocol look at. */
/** `arbitrary` one time in five, else absent (undefined, which JSON leaves out). */
const rarely = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary, weight: 1 });
const toolCallLike = fc.record({
  jsonrpc: fc.constant('2.0'),
  id: fc.oneof(fc.integer(), fc.string(), rarely(fc.oneof(fc.double(), fc.constant(null)))),
  method: fc.oneof(fc.constant('tools/call'), rarely(fc.constant('tools/list'))),
  params: fc.oneof(
    fc.record({
      name: fc.oneof(fc.string(), rarely(odd)),
      arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), odd, { maxKeys: 3 }), fc.constant({ ['__proto__']: 1 }), rarely(odd)),
      _meta: fc.oneof(
        fc.record({ progressToken: fc.oneof(fc.integer(), fc.string(), fc.double(), odd), traceparent: fc.string() }, { requiredKeys: [] }),
        rarely(fc.oneof(fc.record({ 'io.modelcontextprotocol/related-task': fc.oneof(fc.record({ taskId: fc.string() }), odd) }), odd)),
      ),
      task: rarely(fc.oneof(fc.record({ ttl: fc.integer() }), odd)),
      extra: rarely(odd),
    }),
    odd,
  ),
});

describe('tools/call requests served without the SDK Protocol', () => {
  test('only requests the SDK would hand its tools/call handler unchanged are taken: a JSON-RPC request CallToolRequestSchema accepts, with no task', () => {
    let taken = 0;
    fc.assert(
      fc.property(toolCallLike, (generated) => {
        const read = parseJsonRpcBody(Buffer.from(JSON.stringify(generated)));
        if (!read.ok) return;
        const message = read.messages[0]!;
        if (!isPlainToolCall(message)) return;
        taken++;
        const json = JSON.parse(JSON.stringify(message)) as { params: Record<string, unknown> };
        assert.ok(JSONRPCRequestSchema.safeParse(json).success, JSON.stringify(json));
        assert.ok(CallToolRequestSchema.safeParse(json).success, JSON.stringify(json));
        assert.ok(!('task' in json.params), JSON.stringify(json));
      }),
      { numRuns: 5000, seed: 29 },
    );
    // Not a check that cannot fail: a good share of the generated requests is plain.
    assert.ok(taken > 100, `only ${taken} plain calls generated`);
  });

  test('an ordinary call is taken; a task-augmented one, a related task, a fractional progress token or a stray key is left to the SDK', () => {
    const call = (params: unknown, id: unknown = 1) => parseJsonRpcBody(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })));
    const taken = (params: unknown, id?: unknown) => {
      const read = call(params, id);
      return read.ok && isPlainToolCall(read.messages[0]!);
    };
    assert.equal(taken({ name: 'echo', arguments: { text: 'x' } }), true);
    assert.equal(taken({ name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: 'p', traceparent: '00-x' } }), true);
    assert.equal(taken({ name: 'echo' }, 'string-id'), true);
    assert.equal(taken({ name: 'echo', task: { ttl: 1000 } }), false);
    assert.equal(taken({ name: 'echo', _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } }), false);
    assert.equal(taken({ name: 'echo', _meta: { progressToken: 1.5 } }), false);
    assert.equal(taken({ name: 'echo', arguments: [] }), false);
    assert.equal(taken({ name: 'echo', arguments: null }), false);
    assert.equal(taken({ name: 42 }), false);
    assert.equal(taken({ name: 'echo', stray: true }), false);
  });
});
