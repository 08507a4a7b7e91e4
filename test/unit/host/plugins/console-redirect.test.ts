import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { redirectConsoleToStderr } from '../../../../src-main/host/plugins/index.js';

test('console.log and friends go to the redirect target until restored', () => {
  const target = new PassThrough();
  const chunks: string[] = [];
  target.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  const originalLog = console.log;
  const restore = redirectConsoleToStderr(target);
  try {
    console.log('plugin says %s', 'hi');
    console.info('info line');
  } finally {
    restore();
  }
  assert.equal(console.log, originalLog);
  assert.equal(chunks.join(''), 'plugin says hi\ninfo line\n');
});
