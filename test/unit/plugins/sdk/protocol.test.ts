import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RequestVersionHandshakeSchema,
  ResponseCallToolSchema,
  ResponseErrorKind,
  ResponseListToolSchema,
  ResponseStatus,
  matchesUriTemplate,
} from '../../../../plugins/sdk/src/protocol.js';

test('enums are accepted as numbers or names and come out as numbers', () => {
  const byName = ResponseCallToolSchema.parse({ status: 'Success', errorKind: 'unavailable' });
  const byNumber = ResponseCallToolSchema.parse({ status: 1, errorKind: 5 });
  assert.equal(byName.status, ResponseStatus.Success);
  assert.equal(byName.errorKind, ResponseErrorKind.Unavailable);
  assert.deepEqual(byName, byNumber);
  assert.equal(ResponseCallToolSchema.safeParse({ status: 'Maybe' }).success, false);
  assert.equal(ResponseCallToolSchema.safeParse({ status: 7 }).success, false);
});

test('nulls from .NET peers read as absent; defaults fill what 8.0 omits', () => {
  const tool = ResponseListToolSchema.parse({ name: 'a', enabled: null, title: null, inputSchema: null, readOnlyHint: null });
  assert.deepEqual(JSON.parse(JSON.stringify(tool)), { name: 'a', enabled: true, inputSchema: { type: 'object', additionalProperties: false } });
  const handshake = RequestVersionHandshakeSchema.parse({ apiVersion: '2.0.0', pluginVersion: '8.0.0', environment: 'Unity', mcpPluginVersion: null });
  assert.equal(handshake.mcpPluginVersion, undefined);
});

test('URI templates match one path segment per variable', () => {
  assert.equal(matchesUriTemplate('scene://objects/{id}', 'scene://objects/42'), true);
  assert.equal(matchesUriTemplate('scene://objects/{id}', 'scene://objects/4/2'), false);
  assert.equal(matchesUriTemplate('scene://objects/{id}', 'scene://objects/'), false);
  assert.equal(matchesUriTemplate('a.b://{x}', 'aXb://1'), false);
});
