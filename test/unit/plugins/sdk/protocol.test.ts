import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RequestCallToolSchema,
  RequestIdOnlySchema,
  RequestVersionHandshakeSchema,
  ResponseCallToolDataSchema,
  ResponseCallToolSchema,
  ResponseDataSchema,
  ResponseErrorKind,
  ResponseListToolSchema,
  ResponseStatus,
  matchesUriTemplate,
  successData,
  toDotNetWire,
} from '../../../../plugins/sdk/wire/index.js';

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

test('DTOs read the .NET client PascalCase and camelCase alike; opaque JSON keeps its keys', () => {
  const pascal = ResponseCallToolDataSchema.parse({
    RequestID: 'r1',
    Status: 'Success',
    Message: 'ok',
    ErrorKind: 'None',
    Value: {
      RequestID: 'r1',
      Status: 'success',
      Content: [{ Type: 'text', Text: '{"result":1}', MimeType: 'application/json' }],
      StructuredContent: { result: { Name: 'Cube', InstanceID: 1 } },
    },
  });
  const camel = ResponseCallToolDataSchema.parse({
    requestId: 'r1',
    status: 1,
    message: 'ok',
    errorKind: 0,
    value: { requestId: 'r1', status: 1, content: [{ type: 'text', text: '{"result":1}', mimeType: 'application/json' }], structuredContent: { result: { Name: 'Cube', InstanceID: 1 } } },
  });
  assert.deepEqual(pascal, camel);
  assert.deepEqual(pascal.value?.structuredContent, { result: { Name: 'Cube', InstanceID: 1 } });

  const tool = ResponseListToolSchema.parse({ Name: 't', InputSchema: { type: 'object', properties: { Target: { type: 'string' } } }, ReadOnlyHint: true });
  assert.deepEqual(tool.inputSchema, { type: 'object', properties: { Target: { type: 'string' } } });
  assert.equal(tool.readOnlyHint, true);
  // Notifications spell RequestId, requests RequestID: both are one property.
  assert.equal(RequestIdOnlySchema.parse({ RequestId: 'n1' }).requestId, 'n1');
  assert.equal(RequestIdOnlySchema.parse({ RequestID: 'n2' }).requestId, 'n2');
  assert.equal(RequestCallToolSchema.parse({ RequestID: 'c', Name: 'x', Arguments: { Mixed_Case: 1 } }).arguments['Mixed_Case'], 1);
});

test('a property spelled twice in different cases is refused, naming both spellings', () => {
  const twice = ResponseDataSchema.safeParse({ Status: 'Success', status: 'Error' });
  assert.equal(twice.success, false);
  assert.match(JSON.stringify(twice.error?.issues), /duplicate property: 'Status' and 'status'/);
  assert.equal(RequestIdOnlySchema.safeParse({ RequestID: 'a', requestId: 'a' }).success, false);
});

test('enum names in any case, numbers and numeric strings are read; unknown names and out-of-range numbers are refused', () => {
  assert.equal(ResponseDataSchema.parse({ status: 'PROCESSING' }).status, ResponseStatus.Processing);
  assert.equal(ResponseDataSchema.parse({ status: '1' }).status, ResponseStatus.Success);
  assert.equal(ResponseDataSchema.parse({ status: 0, errorKind: 'notfound' }).errorKind, ResponseErrorKind.NotFound);
  assert.equal(ResponseDataSchema.safeParse({ status: 'Succeeded' }).success, false);
  assert.equal(ResponseDataSchema.safeParse({ status: 3 }).success, false);
  assert.equal(ResponseDataSchema.safeParse({ status: 1.5 }).success, false);
});

test('toDotNetWire writes as McpPlugin.Server: PascalCase, RequestID, enum names, no nulls, opaque JSON untouched', () => {
  assert.deepEqual(toDotNetWire({ requestId: 'r', name: 'tool', arguments: { someArg: 1, Other: null } }), { RequestID: 'r', Name: 'tool', Arguments: { someArg: 1, Other: null } });
  assert.deepEqual(toDotNetWire({ ...successData('n1'), message: 'Received' }), { RequestID: 'n1', Status: 'Success', ErrorKind: 'None', Message: 'Received' });
  assert.deepEqual(toDotNetWire({ requestId: 'p', value: [{ role: 1, content: { type: 'text', text: 'x' } }] }), {
    RequestID: 'p',
    Value: [{ Role: 'Assistant', Content: { Type: 'text', Text: 'x' } }],
  });
  // What it writes, the contract reads back.
  const roundTrip = ResponseDataSchema.parse(toDotNetWire({ ...successData('z'), httpStatusCode: undefined }));
  assert.deepEqual(JSON.parse(JSON.stringify(roundTrip)), { requestId: 'z', status: ResponseStatus.Success, errorKind: ResponseErrorKind.None });
});
