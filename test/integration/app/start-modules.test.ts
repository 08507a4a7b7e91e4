/**
 * What `junction serve` loads before it is ready, with no workspace and nobody connected (issue 25:
 * every module loaded at start stays resident). The MCP SDK's Server (with its Protocol and the zod
 * v3 and zod-to-json-schema its compatibility layer needs), ajv and semver's index are loaded on first
 * need; a static import of any of them would bring it back to the start path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_SOURCE_FOR_TESTS, isolatedEnv } from '../../support/cli.js';

const RECORDER = fileURLToPath(new URL('../../support/module-load-recorder.mjs', import.meta.url));
const OFF_THE_START_PATH = [
  '/@modelcontextprotocol/sdk/dist/esm/server/index.js',
  '/@modelcontextprotocol/sdk/dist/esm/shared/protocol.js',
  '/zod/v3/',
  '/zod-to-json-schema/',
  '/ajv/',
  '/ajv-formats/',
  '/semver/index.js',
  '/src-main/mcp/session-server.ts',
  '/src-main/mcp/schema-validator.ts',
];

async function untilReady(child: ReturnType<typeof spawn>): Promise<void> {
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const mcp = /MCP\s+(http:\/\/\S+)\/mcp/.exec(output);
      if (mcp) resolve(mcp[1]!);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`junction serve exited (${code}) before it listened:\n${output}`)));
  });
  for (let attempt = 0; attempt < 300; attempt++) {
    const reply = await fetch(`${base}/readyz`).catch(() => undefined);
    if (reply?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('junction serve did not become ready within 30 s');
}

test("a ready Junction with no workspace has loaded neither the SDK's Server nor ajv nor semver's index", async () => {
  const home = mkdtempSync(join(tmpdir(), 'junction-start-modules-'));
  const record = join(home, 'loaded.txt');
  const child = spawn(process.execPath, ['--import', RECORDER, ...CLI_SOURCE_FOR_TESTS, 'serve', 'host=127.0.0.1', 'port=0', `state-dir=${join(home, 'state')}`, 'log-level=warn'], {
    env: { ...isolatedEnv(), RECORD_LOADS_TO: record },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await untilReady(child);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  try {
    const loaded = readFileSync(record, 'utf8').split('\n');
    assert.ok(loaded.some((url) => url.endsWith('/src-main/mcp/server.ts')), 'the recorder saw the MCP room load');
    for (const module of OFF_THE_START_PATH) assert.deepEqual(loaded.filter((url) => url.includes(module)), [], `${module} is loaded at start`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
