import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { CLI_SOURCE_FOR_TESTS, isolatedEnv } from '../../support/cli.js';
import { startTestJunction } from '../../support/junction-harness.js';

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

test('when its in-process fallback cannot take the state directory, the agent gets a JSON-RPC error naming the cause and the setting', async () => {
  const running = await startTestJunction();
  try {
    const transport = new StdioClientTransport({
      command: process.execPath,
      // Port 0 never answers the health probe, so connect tries to start its own instance on the held directory.
      args: [...CLI_SOURCE_FOR_TESTS, 'connect', 'port=0', `state-dir=${running.stateDir}`, 'log-level=error', 'console=false'],
      env: isolatedEnv(),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const agent = new Client({ name: 'stdio-agent', version: '1.0.0' });
    const failure = await agent.connect(transport).then(
      () => assert.fail('initialize must fail'),
      (error: unknown) => error,
    );
    await agent.close();
    assert.ok(failure instanceof McpError, String(failure));
    assert.match(failure.message, /Junction could not start: The state directory .* is in use by another Junction/);
    assert.match(failure.message, /--state-dir DIR \(setting 'state-dir', JUNCTION_STATE_DIR\)/);
    assert.match(failure.message, new RegExp(`serving ${running.baseUrl.replace(/[.]/g, '\\.')}`));
    assert.equal((failure.data as { code: string }).code, 'StateDirectoryLocked');
    assert.match(stderr, /could not be started in this process: The state directory/);
  } finally {
    await running.stop();
  }
});
