import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { OperatorNotice } from '../../../src-main/contracts/index.js';
import { MAX_STANDING_NOTICES, StandingNotices } from '../../../src-main/control/standing-notices.js';

const notice = (id: string, at: number, ttlMs?: number): OperatorNotice => ({
  id,
  level: 'error',
  title: 't',
  message: 'm',
  subject: { kind: 'audit', id: 'audit-database', label: 'audit database' },
  at,
  ...(ttlMs === undefined ? {} : { ttlMs }),
});

describe('standing notices for consoles that open later', () => {
  test('only notices with a lifetime of their own stand, until it runs out; raised again, one replaces the other', () => {
    const standing = new StandingNotices();
    standing.observe({ type: 'notice.raised', notice: notice('moment', 0) });
    standing.observe({ type: 'notice.raised', notice: notice('lasting', 0, 1_000) });
    standing.observe({ type: 'notice.raised', notice: notice('later', 500, 1_000) });
    assert.deepEqual(standing.list(999).map((n) => n.id), ['lasting', 'later']);
    assert.deepEqual(standing.list(1_000).map((n) => n.id), ['later'], 'gone when its lifetime ran out');
    standing.observe({ type: 'notice.raised', notice: notice('later', 1_200, 1_000) });
    assert.deepEqual(standing.list(2_000).map((n) => [n.id, n.at]), [['later', 1_200]]);
    assert.deepEqual(standing.list(2_200), []);
  });

  test('bounded: the oldest go first', () => {
    const standing = new StandingNotices();
    for (let i = 0; i < MAX_STANDING_NOTICES + 5; i++) standing.observe({ type: 'notice.raised', notice: notice(`n${i}`, i, 60_000) });
    const ids = standing.list(100).map((n) => n.id);
    assert.equal(ids.length, MAX_STANDING_NOTICES);
    assert.equal(ids[0], 'n5');
  });
});
