import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_SOURCE_FOR_TESTS, isolatedEnv } from '../../support/cli.js';

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
