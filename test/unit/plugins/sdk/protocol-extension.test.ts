import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ExtensionsSchema,
  INPUT_KEY_MAX,
  RequestCompletionSchema,
  RequestElicitationSchema,
  RequestRootsSchema,
  RequestSamplingSchema,
  ResponseRootsDataSchema,
  RequestResourceSubscriptionSchema,
  RequestVersionHandshakeSchema,
  ResponseElicitationDataSchema,
  toDotNetWire,
} from '../../../../plugins/sdk/wire/index.js';

describe('MCP extension 1 on the wire', () => {
  test('server → plugin payloads in McpPlugin.Server writing decode like the rest of the wire; author keys stay as written', () => {
    const sent = toDotNetWire({ requestId: 'r1', ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'city', value: 'pa' }, context: { arguments: { firstName: 'Ada' } } });
    assert.deepEqual(Object.keys(sent as object), ['RequestID', 'Ref', 'Argument', 'Context']);
    assert.deepEqual(RequestCompletionSchema.parse(sent), {
      requestId: 'r1',
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'city', value: 'pa' },
      context: { arguments: { firstName: 'Ada' } },
    });
    assert.deepEqual(RequestResourceSubscriptionSchema.parse(toDotNetWire({ requestId: 'r2', uri: 'test://x' })), { requestId: 'r2', uri: 'test://x' });
  });

  test('an elicitation answer keeps the field names of the form and accepts the action in any case', () => {
    const parsed = ResponseElicitationDataSchema.parse({ RequestID: 'r', Status: 'Success', Value: { Action: 'Accept', Content: { Name: 'x', name: 'y' } } });
    assert.deepEqual(parsed.value, { action: 'accept', content: { Name: 'x', name: 'y' } });
    assert.equal(ResponseElicitationDataSchema.safeParse({ status: 1, value: { action: 'maybe' } }).success, false);
  });

  test('the handshake carries the extension only when sent; unknown features from a newer peer are dropped', () => {
    const dotnet = RequestVersionHandshakeSchema.parse({ requestId: '1', apiVersion: '2.0.0', pluginVersion: '1', environment: 'Unity', mcpPluginVersion: '8.16.0' });
    assert.equal(dotnet.extensions, undefined);
    assert.deepEqual(ExtensionsSchema.parse({ version: 2, features: ['completion', 'telepathy'] }), { version: 2, features: ['completion'] });
  });

  test("a question's key is optional, read in any case, and 1-64 of letters, digits, _ . - (anything else is refused)", () => {
    const elicitation = { requestId: 'r', elicitationId: 'e', message: 'Name?', requestedSchema: { type: 'object' } };
    assert.equal(RequestElicitationSchema.parse(elicitation).key, undefined, 'a plugin that names no key is read as before');
    assert.equal(RequestElicitationSchema.parse({ ...elicitation, key: null }).key, undefined, 'null reads as absent, as everywhere on the wire');
    assert.equal(RequestElicitationSchema.parse({ ...elicitation, Key: 'user_name' }).key, 'user_name');
    assert.equal(RequestSamplingSchema.parse({ requestId: 'r', samplingId: 's', params: {}, key: 'a.b-c_1' }).key, 'a.b-c_1');
    assert.equal(RequestRootsSchema.parse({ requestId: 'r', rootsId: 'x', key: 'k'.repeat(INPUT_KEY_MAX) }).key, 'k'.repeat(INPUT_KEY_MAX));
    for (const key of [42, true, {}, '', 'k'.repeat(INPUT_KEY_MAX + 1), 'two words', 'ключ', 'a/b']) {
      assert.equal(RequestElicitationSchema.safeParse({ ...elicitation, key }).success, false, JSON.stringify(key));
      assert.equal(RequestRootsSchema.safeParse({ requestId: 'r', rootsId: 'x', key }).success, false, JSON.stringify(key));
    }
  });

  test("the agent's roots come back in the envelope, their fields read in any case, other fields kept", () => {
    const parsed = ResponseRootsDataSchema.parse({ RequestID: 'r', Status: 'Success', Value: { Roots: [{ Uri: 'file:///p', Name: 'p', _meta: { x: 1 } }] } });
    assert.deepEqual(parsed.value?.roots, [{ uri: 'file:///p', name: 'p', _meta: { x: 1 } }]);
    assert.equal(ResponseRootsDataSchema.safeParse({ status: 1, value: { roots: [{ name: 'no uri' }] } }).success, false);
  });
});
