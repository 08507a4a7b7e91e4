import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_SOURCE_FOR_TESTS, isolatedEnv, stdioAgent } from '../../support/cli.js';

test('a malformed or unknown setting stops the CLI at start, naming the key and its origin', () => {
  const result = spawnSync(process.execPath, [...CLI_SOURCE_FOR_TESTS, 'serve', 'port=eighty', '--colour', 'blue'], {
    env: { ...isolatedEnv(), JUNCTION_MODE: 'reckless' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /port \(command line\): expected an integer from 0 to 65535, got "eighty"/);
  assert.match(result.stderr, /--colour \(command line\): unknown setting 'colour'/);
  assert.match(result.stderr, /JUNCTION_MODE \(environment\): expected one of inspection-only/);
});

test('an invalid approval policy stops the CLI at start, naming the rule index and field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'junction-policy-cli-'));
  const policy = join(dir, 'policy.json');
  writeFileSync(policy, JSON.stringify({ rules: [{ tool: 'remove-*', action: 'ask' }, { action: 'deny', arguments: [{ pointer: '/a', regex: '(a+)+$' }] }] }));
  const result = spawnSync(process.execPath, [...CLI_SOURCE_FOR_TESTS, 'serve', 'port=0', `approval-policy=${policy}`, `state-dir=${join(dir, 'state')}`], { env: isolatedEnv(), encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /rule 1, field rules\.1\.arguments\.0\.regex: is refused because it repeats a group that itself repeats/);
});

test('refuses to bind a non-loopback address without a token', () => {
  const result = spawnSync(process.execPath, [...CLI_SOURCE_FOR_TESTS, 'serve', 'host=0.0.0.0', 'port=0'], { env: isolatedEnv(), encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /0\.0\.0\.0/);
});

test('`junction connect` with no instance running starts one in-process and serves its catalogue on stdio', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-connect-'));
  // Port 0 never answers a health probe, so connect must start its own instance.
  const agent = await stdioAgent(['connect', 'port=0', `state-dir=${stateDir}`, 'log-level=error', 'console=false']);
  try {
    const { tools } = await agent.listTools();
    assert.ok(tools.some((t) => t.name === 'server-status'));
    const status = await agent.callTool({ name: 'server-status', arguments: {} });
    assert.equal(status.isError, undefined);
  } finally {
    await agent.close();
  }
});

