import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ExtensionsSchema,
  RequestCompletionSchema,
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
});
