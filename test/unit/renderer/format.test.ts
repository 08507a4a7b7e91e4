import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRate, formatTime } from '../../../src-renderer/src/lib/format.js';

test('times are 24-hour local clock times with milliseconds, zero-padded', () => {
  const afternoon = new Date(2026, 0, 2, 15, 4, 5, 7).getTime();
  assert.equal(formatTime(afternoon), '15:04:05.007');
  assert.equal(formatTime(new Date(2026, 0, 2, 0, 0, 0, 999).getTime()), '00:00:00.999');
});

test('rates keep two decimals below 10 and group thousands above', () => {
  assert.equal(formatRate(0), '0');
  assert.equal(formatRate(2.5), '2.50');
  assert.equal(formatRate(999.6), '1,000');
  assert.equal(formatRate(1234567), '1,234,567');
  assert.equal(formatRate(12), '12');
});
