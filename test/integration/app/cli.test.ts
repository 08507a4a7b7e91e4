import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_SOURCE_FOR_TESTS } from '../../support/cli.js';
import { startTestJunction } from '../../support/junction-harness.js';

const isolatedEnv = () => ({ ...process.env, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'junction-cfg-')) });

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

test('refuses to bind a non-loopback address without a token', () => {
  const result = spawnSync(process.execPath, [...CLI_SOURCE_FOR_TESTS, 'serve', 'host=0.0.0.0', 'port=0'], { env: isolatedEnv(), encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /0\.0\.0\.0/);
});

test('`junction connect` with no instance running starts one in-process and serves its catalogue on stdio', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-connect-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Port 0 never answers a health probe, so connect must start its own instance.
    args: [...CLI_SOURCE_FOR_TESTS, 'connect', 'port=0', `state-dir=${stateDir}`, 'log-level=error', 'console=false'],
    env: isolatedEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  const agent = new Client({ name: 'stdio-agent', version: '1.0.0' });
  await agent.connect(transport);
  try {
    const { tools } = await agent.listTools();
    assert.ok(tools.some((t) => t.name === 'server-status'));
    const status = await agent.callTool({ name: 'server-status', arguments: {} });
    assert.equal(status.isError, undefined);
  } finally {
    await agent.close();
  }
});

test('a second instance on a state directory in use names the directory, the running instance and its URL, and the state-dir setting', async () => {
  const running = await startTestJunction();
  try {
    const result = spawnSync(process.execPath, [...CLI_SOURCE_FOR_TESTS, 'serve', 'port=0', `state-dir=${running.stateDir}`, 'console=false', 'log-level=error'], {
      env: isolatedEnv(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(result.status, 1);
    assert.match(result.stderr, new RegExp(`The state directory ${running.stateDir} is in use by another Junction \\(pid ${process.pid}, serving ${running.baseUrl.replace(/[.]/g, '\\.')}\\)`));
    assert.match(result.stderr, /--state-dir DIR \(setting 'state-dir', JUNCTION_STATE_DIR\)/);
    assert.match(result.stderr, new RegExp(`junction connect --port ${running.port}`));
  } finally {
    await running.stop();
  }
});

test('`npm start --port 9000` (without --) is refused with the command that works, instead of starting on another port', () => {
  // A throwaway package whose start script runs this CLI, so the real npm parses the command line.
  const dir = mkdtempSync(join(tmpdir(), 'junction-npm-'));
  // tsx by absolute URL: the script runs in the throwaway package, which has no node_modules.
  const command = [process.execPath, '--import', import.meta.resolve('tsx'), CLI_SOURCE_FOR_TESTS.at(-1)!, 'start', 'console=false', 'port=0'].map((part) => JSON.stringify(part)).join(' ');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'npm-start-probe', version: '1.0.0', private: true, scripts: { start: command } }));
  const env = { ...isolatedEnv(), XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'junction-npm-state-')) };
  const result = spawnSync('npm', ['start', '--silent', '--port', '9000'], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /--port was taken by npm, not passed to Junction: npm passes on only what follows --\. Run: npm start -- --port 9000/);
  assert.doesNotMatch(result.stderr, /running headless/);
});
