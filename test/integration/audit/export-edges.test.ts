/**
 * The audit export at its edges, on real parts: the CLI's export into a real pipe whose reader stops
 * early (`| head`), and the console's export link opened with the launch token, through its redirect.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditDbPath } from '../../../src-main/audit/index.js';
import type { PreparedRecord } from '../../../src-main/audit/rows.js';
import { saveSpill, spillPath } from '../../../src-main/audit/spill.js';
import { timeOrderedId } from '../../../src-main/shared/time-ordered-id.js';
import { CLI_SOURCE_FOR_TESTS, isolatedEnv } from '../../support/cli.js';
import { startTestJunction } from '../../support/junction-harness.js';

function call(i: number): PreparedRecord {
  const args = JSON.stringify({ n: i, note: 'x'.repeat(1_000) });
  return {
    type: 'call',
    params: {
      callId: timeOrderedId(1_700_000_000_000 + i), startedAt: 1_700_000_000_000 + i, agent: 'agent', transport: 'http-api', tool: 'echo', target: 'host', status: 'ok', errorCode: null,
      durationMs: 1, requestBytes: args.length, responseBytes: null, arguments: args, result: null, redacted: null, truncated: 0, policy: null, decidedBy: null, replayOf: null,
    },
  };
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

test('`junction audit export | head -n 1` prints one line and no EPIPE stack, and the export exits 0', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-export-pipe-'));
  try {
    mkdirSync(join(stateDir, 'audit'), { recursive: true });
    // Five megabytes of lines, far more than a pipe buffers: the export is still writing when head leaves.
    saveSpill(spillPath(auditDbPath(stateDir)), Array.from({ length: 5_000 }, (_, i) => call(i)));
    const exportCommand = [process.execPath, ...CLI_SOURCE_FOR_TESTS, 'audit', 'export', `state-dir=${stateDir}`].map(shellQuote).join(' ');
    // The export's own exit status, printed after the pipeline (POSIX sh has no pipefail).
    const run = spawnSync('sh', ['-c', `{ ${exportCommand}; echo "export-exit=$?" >&2; } | head -n 1`], { encoding: 'utf8', env: isolatedEnv() });
    assert.equal(run.status, 0);
    assert.equal(run.stdout.split('\n').filter(Boolean).length, 1);
    assert.equal(JSON.parse(run.stdout).type, 'call');
    assert.equal(run.stderr.trim(), 'export-exit=0', 'nothing but the exit status on stderr');
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
});

test('the console export link keeps its format and window through the token redirect', async () => {
  const junction = await startTestJunction();
  try {
    const before = Date.now();
    const recorded = await fetch(`${junction.baseUrl}/api/tools/no-such-tool`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await recorded.body?.cancel();
    const token = new URL(junction.consoleUrl).searchParams.get('token')!;
    const link = `${junction.baseUrl}/audit/export?format=csv&since=${before}&token=${token}`;
    const first = await fetch(link, { redirect: 'manual' });
    assert.equal(first.status, 303);
    const location = first.headers.get('location')!;
    assert.equal(location, `/audit/export?format=csv&since=${before}`, 'the query stays, the token goes');
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(`${junction.baseUrl}${location}`, { headers: { cookie } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = (await page.text()).split('\n').filter(Boolean);
    assert.match(lines[0]!, /^type,at,callId,/);
    assert.ok(lines.slice(1).some((line) => line.includes('no-such-tool')), 'the call recorded after `since` is exported');
    const later = await fetch(`${junction.baseUrl}/audit/export?format=csv&since=${Date.now() + 60_000}`, { headers: { cookie } });
    assert.equal((await later.text()).split('\n').filter(Boolean).length, 1, 'a window after every call holds the header alone');
  } finally {
    await junction.stop();
  }
});
