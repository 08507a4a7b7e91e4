import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closestNames, didYouMean } from '../../../src-main/shared/suggest.js';

const TOOLS = ['document-read', 'document-write', 'transaction-start', 'transaction-commit', 'server-status', 'echo', 'echo-held'];

test('typos within a third of their length are suggested, nearest first, case-insensitive', () => {
  assert.deepEqual(closestNames('documnt-read', TOOLS), ['document-read']);
  assert.deepEqual(closestNames('document-rite', TOOLS), ['document-write', 'document-read']);
  assert.deepEqual(closestNames('SERVER-STATSU', TOOLS), ['server-status']);
  assert.deepEqual(closestNames('ehco', TOOLS), ['echo']);
  assert.deepEqual(closestNames('weather', TOOLS), [], 'an unrelated word matches nothing');
});

test('a name contained in a known one counts as one edit, however much longer the known name is', () => {
  assert.deepEqual(closestNames('transaction', TOOLS), ['transaction-start', 'transaction-commit']);
  assert.deepEqual(closestNames('echo', TOOLS), ['echo', 'echo-held']);
  assert.deepEqual(closestNames('ec', TOOLS), ['echo'], 'under three characters only the edit distance counts');
});

test('at most `max` names, and the message reads naturally', () => {
  assert.deepEqual(closestNames('document', TOOLS, 1), ['document-read']);
  assert.equal(didYouMean([]), '');
  assert.equal(didYouMean(['a']), " Did you mean 'a'?");
  assert.equal(didYouMean(['a', 'b', 'c']), " Did you mean 'a', 'b' or 'c'?");
});

// The timeout is what fails here without the length bounds, with a margin of orders of magnitude: the
// distance of a megabyte name to its one-letter extension is 10^12 steps, and 1 MB against 40 short
// names held the event loop for about 14 s; with the bounds it takes well under a millisecond.
test('an unknown name of a megabyte gets no suggestion, and a long known name is still compared with a long unknown one', { timeout: 10_000 }, () => {
  const huge = 'x'.repeat(1_000_000);
  assert.deepEqual(closestNames(huge, [...TOOLS, `${huge}y`]), []);
  const long = `${'segment-'.repeat(30)}tool`;
  assert.deepEqual(closestNames(`${long}s`, [...TOOLS, long]), [long]);
});
