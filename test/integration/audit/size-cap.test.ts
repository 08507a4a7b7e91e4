/**
 * `audit-max-mb` holds as writes happen, the write-ahead log counted: a real Junction with a 1 MiB cap
 * takes megabytes of recorded calls through `/api`, and after every batch written the database file and
 * its log together stay under the cap, the newest calls kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestJunction } from '../../support/junction-harness.js';

const CAP = 1024 * 1024;

test('with audit-max-mb=1, the database and its write-ahead log stay under 1 MiB after every batch, and the newest calls are kept', async () => {
  const junction = await startTestJunction(['audit-max-mb=1']);
  try {
    const store = junction.audit!.store;
    const post = async (i: number) => {
      const res = await fetch(`${junction.baseUrl}/api/tools/no-such-tool`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: i, pad: `${i} `.repeat(1_000) }) });
      await res.body?.cancel();
    };
    let recorded = 0;
    // Ten megabytes of arguments in all, ten times the cap, within seconds (retention's pass runs once a minute).
    for (let round = 0; round < 10; round++) {
      await Promise.all(Array.from({ length: 200 }, () => post(recorded++)));
      store.flush();
      const bytes = store.fileBytes();
      assert.ok(bytes <= CAP, `after ${recorded} calls the database and its log hold ${bytes} bytes, over the cap of ${CAP}`);
    }
    const page = await junction.audit!.history.query({ limit: 10 });
    assert.ok(page.calls.length > 0, 'the newest calls are still there');
    assert.match(JSON.stringify(page.calls[0]), /no-such-tool/);
  } finally {
    await junction.stop();
  }
});
