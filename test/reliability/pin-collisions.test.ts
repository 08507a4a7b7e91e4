/** The fuzzer class "prefix-colliding pins" (issue 23): pins cut from hashes that share long prefixes, while projects come and go. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzzPins } from './scenarios/fuzz-pins.js';

test('fuzz: prefix-colliding pins are served by the one project they name, 404 for none, 409 naming the candidates for several', async () => {
  const [tally] = await fuzzPins(60);
  assert.ok(tally);
  assert.ok(tally.tried > 30, `${tally.tried} calls tried`);
  assert.deepEqual(tally.violations, []);
  assert.equal(tally.accepted + tally.refused, tally.tried);
  assert.ok(tally.accepted > 0 && tally.refused > 0, `both served and refused pins were tried (${tally.accepted} / ${tally.refused})`);
});
