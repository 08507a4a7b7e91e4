import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateArguments } from '../../../../src-main/bridge/calls/arguments.js';
import { tool } from '../registry/fixtures.js';
import { collectGarbage } from '../../../reliability/scenarios/rss.js';

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { count: { type: 'integer' }, label: { type: 'string', format: 'made-up-format' } },
  required: ['count'],
};

test('required arguments and types are checked; the dialect marker and unknown formats do not break it', async () => {
  const descriptor = tool('t', schema);
  assert.deepEqual(await validateArguments(descriptor, { count: 3, label: 'x' }), []);
  assert.deepEqual(await validateArguments(descriptor, {}), [{ path: '/count', message: "must have required property 'count'" }]);
  assert.deepEqual(await validateArguments(descriptor, { count: 'three' }), [{ path: '/count', message: 'must be integer' }]);
});

test("a tool's first call waits for its validator; later calls are checked at once", async () => {
  const descriptor = tool('once', schema);
  const first = validateArguments(descriptor, { count: 1 });
  assert.ok(first instanceof Promise);
  assert.deepEqual(await first, []);
  assert.deepEqual(validateArguments(descriptor, { count: 'one' }), [{ path: '/count', message: 'must be integer' }]);
});

test('a schema ajv cannot compile is not enforced', async () => {
  assert.deepEqual(await validateArguments(tool('bad', { type: 'object', properties: { a: { $ref: '#/nowhere' } } }), { a: 1 }), []);
});

test('an enum or const mismatch names the allowed values, so the agent can fix its call', async () => {
  const descriptor = tool('paint', {
    type: 'object',
    properties: { colour: { enum: ['red', 'green', 3] }, mode: { const: 'fast' } },
  });
  assert.deepEqual(await validateArguments(descriptor, { colour: 'blue', mode: 'slow' }), [
    { path: '/colour', message: 'must be equal to one of the allowed values: "red", "green", 3' },
    { path: '/mode', message: 'must be equal to constant "fast"' },
  ]);
});

test('a plugin that reconnects again and again, publishing equal schemas as new objects, does not grow the heap', async () => {
  const validateFresh = async (n: number) => {
    // A new descriptor each time, as the catalogue builds from each reconnect's tool list.
    const descriptor = tool('t', structuredClone(schema));
    assert.equal((await validateArguments(descriptor, { count: n })).length, 0);
  };
  for (let n = 0; n < 50; n++) await validateFresh(n);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  for (let n = 0; n < 2_000; n++) await validateFresh(n);
  collectGarbage();
  const grownMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  assert.ok(grownMb < 2, `2,000 reconnects grew the heap by ${grownMb.toFixed(1)} MB`);
});

test('past the cap on distinct schemas, validation still works', async () => {
  for (let n = 0; n < 1_100; n++) {
    const descriptor = tool(`t${n}`, { type: 'object', properties: { [`p${n}`]: { type: 'integer' } }, required: [`p${n}`] });
    assert.equal((await validateArguments(descriptor, { [`p${n}`]: 'x' }))[0]?.message, 'must be integer');
  }
});
