import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validTraceparent } from '../../../src-main/shared/index.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

test('a version 00 traceparent is kept as sent, sampled or not', () => {
  assert.equal(validTraceparent(`00-${TRACE}-${PARENT}-01`), `00-${TRACE}-${PARENT}-01`);
  assert.equal(validTraceparent(`00-${TRACE}-${PARENT}-00`), `00-${TRACE}-${PARENT}-00`);
});

test('what Trace Context calls invalid is dropped: wrong shape, case, zero ids, version ff, trailing data on 00', () => {
  const invalid: unknown[] = [
    undefined,
    null,
    42,
    { traceparent: `00-${TRACE}-${PARENT}-01` },
    '',
    `00-${TRACE.toUpperCase()}-${PARENT}-01`,
    `00-${'0'.repeat(32)}-${PARENT}-01`,
    `00-${TRACE}-${'0'.repeat(16)}-01`,
    `ff-${TRACE}-${PARENT}-01`,
    `00-${TRACE}-${PARENT}-01-extra`,
    `00-${TRACE}-${PARENT}-1`,
    `00_${TRACE}_${PARENT}_01`,
    ` 00-${TRACE}-${PARENT}-01`,
    // Two headers joined by Node.
    `00-${TRACE}-${PARENT}-01, 00-${TRACE}-${PARENT}-01`,
  ];
  for (const value of invalid) assert.equal(validTraceparent(value), undefined, JSON.stringify(value));
});

test('a later version is read by its first four fields and passed on as version 00', () => {
  assert.equal(validTraceparent(`01-${TRACE}-${PARENT}-01`), `00-${TRACE}-${PARENT}-01`);
  assert.equal(validTraceparent(`cc-${TRACE}-${PARENT}-09-what-the-future-adds`), `00-${TRACE}-${PARENT}-09`);
  assert.equal(validTraceparent(`cc-${TRACE}-${PARENT}-09x`), undefined, 'a later field must follow a dash');
});
