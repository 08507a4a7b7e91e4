import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { argsFromValues, formFields, valuesFromArgs } from '../../../src-renderer/src/lib/schema-form.js';
import { readableResult } from '../../../src-renderer/src/lib/tool-result.js';
import { curlCommand, jsonRpcRequest } from '../../../src-renderer/src/lib/call-export.js';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'What to call it' },
    kind: { type: 'string', enum: ['cube', 'sphere'] },
    count: { type: 'integer', default: 1, minimum: 1 },
    visible: { type: 'boolean' },
    position: { type: 'object', properties: { x: { type: 'number' } } },
    limit: { type: ['integer', 'null'] },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name', 'kind'],
};

describe('schema form', () => {
  test('fields follow the schema: scalars, enums, nested objects as groups of their own fields, JSON for the rest, required and defaults', () => {
    assert.deepEqual(
      formFields(SCHEMA).map((f) => [f.path, f.kind, f.required, f.placeholder ?? null]),
      [['name', 'string', true, null], ['kind', 'enum', true, null], ['count', 'integer', false, '1'], ['visible', 'boolean', false, null], ['position', 'object', false, null], ['limit', 'integer', false, null], ['tags', 'json', false, null]],
    );
    assert.deepEqual(formFields(SCHEMA)[4]?.fields?.map((f) => [f.path, f.kind]), [['position/x', 'number']]);
    assert.equal(formFields(SCHEMA)[5]?.nullable, true);
    assert.deepEqual(formFields({ type: 'object' }), []);
  });

  test('arguments from the form leave empty optional fields (and empty optional groups) out and report bad values per field', () => {
    const fields = formFields(SCHEMA);
    assert.deepEqual(argsFromValues(fields, { name: 'Box', kind: 'cube', count: '3', visible: 'false', 'position/x': '1.5', limit: 'null', tags: '["a"]' }), {
      ok: true,
      args: { name: 'Box', kind: 'cube', count: 3, visible: false, position: { x: 1.5 }, limit: null, tags: ['a'] },
    });
    assert.deepEqual(argsFromValues(fields, { name: 'Box', kind: 'cube' }), { ok: true, args: { name: 'Box', kind: 'cube' } });
    assert.deepEqual(argsFromValues(fields, { name: '', kind: 'cube', count: '1.5', 'position/x': 'x', tags: '[' }), {
      ok: false,
      problems: ['name is required', 'count must be an integer', 'position/x must be a number', 'tags is not valid JSON'],
    });
    assert.deepEqual(argsFromValues(fields, { name: 'B', kind: 'cube', count: '0' }), { ok: false, problems: ['count must be at least 1'] });
  });

  test('form values round-trip an arguments object', () => {
    const fields = formFields(SCHEMA);
    const args = { name: 'Box', kind: 'sphere', count: 2, position: { x: 0 }, tags: ['t'] };
    const back = argsFromValues(fields, valuesFromArgs(fields, args));
    assert.deepEqual(back, { ok: true, args });
  });
});

describe('readable tool results', () => {
  test('structuredContent wins over the text mirror, and an error envelope is named', () => {
    const r = readableResult({ isError: true, content: [{ type: 'text', text: 'SnapshotMismatch: stale' }], structuredContent: { error: { code: 'SnapshotMismatch', message: 'stale' } } });
    assert.equal(r.isError, true);
    assert.deepEqual(r.error, { code: 'SnapshotMismatch', message: 'stale' });
    assert.deepEqual(r.parts, [{ kind: 'json', value: { error: { code: 'SnapshotMismatch', message: 'stale' } } }]);
  });

  test('content blocks render as what they are: JSON text parsed, prose as text, images as data URLs', () => {
    const r = readableResult({ content: [{ type: 'text', text: '{"a":[1,2]}' }, { type: 'text', text: 'plain words' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'resource', resource: { uri: 'scene://objects', text: '[]', mimeType: 'application/json' } }] });
    assert.deepEqual(r.parts, [
      { kind: 'json', value: { a: [1, 2] } },
      { kind: 'text', text: 'plain words' },
      { kind: 'image', src: 'data:image/png;base64,AAAA', mimeType: 'image/png' },
      { kind: 'resource', uri: 'scene://objects', text: '[]', mimeType: 'application/json' },
    ]);
  });

  test('a truncated preview (a string) is shown as text', () => {
    assert.deepEqual(readableResult('{"content":[…').parts, [{ kind: 'text', text: '{"content":[…' }]);
  });
});

describe('call export', () => {
  test('curl posts the arguments to the tool API, quoting for the shell, with the token from the environment when needed', () => {
    assert.equal(curlCommand('http://127.0.0.1:8080/api/tools', 'add-object', { name: "it's" }, false), `curl -sS -X POST 'http://127.0.0.1:8080/api/tools/add-object' -H 'Content-Type: application/json' --data '{"name":"it'\\''s"}'`);
    assert.match(curlCommand('http://h/api/tools/', 'x', {}, true), /-H "Authorization: Bearer \$JUNCTION_TOKEN" --data '\{\}'$/);
  });

  test('JSON-RPC is the tools/call request an agent would send', () => {
    assert.deepEqual(JSON.parse(jsonRpcRequest('add-object', { kind: 'cube' }, 7)), { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add-object', arguments: { kind: 'cube' } } });
  });
});
