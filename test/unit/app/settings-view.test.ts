import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgv, readEnv, readSettings, resolveConfigWithOrigins } from '../../../src-main/app/config/index.js';
import { RuntimeSettings } from '../../../src-main/app/settings-view.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';

function resolved() {
  return resolveConfigWithOrigins([
    parseArgv(['--mode', 'approval-required', 'token=cli-secret']).parsed,
    readEnv({ JUNCTION_PORT: '9090', JUNCTION_MODE: 'transactional' }),
    readSettings({ 'log-level': 'warn', 'webhook-tool-url': 'https://user:pw@hooks.example/t' }, '/cfg/settings.json'),
  ]);
}

test('each value says where it came from; the first layer that sets a key wins', () => {
  const { origins } = resolved();
  assert.deepEqual(origins.mode, { origin: 'command line', source: '--mode' });
  assert.deepEqual(origins.port, { origin: 'environment', source: 'JUNCTION_PORT' });
  assert.deepEqual(origins['log-level'], { origin: 'settings file', source: '"log-level" in /cfg/settings.json' });
  assert.equal(origins.host, undefined);
});

test('the settings view masks secrets and credentials in URLs, and names defaults', () => {
  const { config, origins } = resolved();
  const view = new RuntimeSettings({ config, origins, settingsPath: '/cfg/settings.json', setters: {} }).view();
  const byKey = new Map(view.settings.map((s) => [s.key, s]));
  assert.equal(byKey.get('token')?.value, '••••••');
  assert.equal(byKey.get('token')?.secret, true);
  assert.equal(byKey.get('webhook-tool-url')?.value, 'https://••••••@hooks.example/t');
  assert.equal(JSON.stringify(view).includes('cli-secret'), false);
  assert.equal(JSON.stringify(view).includes('pw@'), false);
  assert.deepEqual([byKey.get('host')?.origin, byKey.get('host')?.value], ['default', '127.0.0.1']);
  assert.equal(byKey.get('mode')?.editable, undefined);
});

test('runtime changes are validated like the command line, applied through the setter, and shown as from the console', () => {
  const { config, origins } = resolved();
  const applied: unknown[] = [];
  const settings = new RuntimeSettings({ config, origins, setters: { 'plugin-timeout': (ms: number) => applied.push(ms), 'log-level': (l: string) => applied.push(l) } });
  assert.deepEqual(settings.view().settings.find((s) => s.key === 'plugin-timeout')?.editable, { kind: 'int', min: 100, max: 3_600_000 });
  const after = settings.update('plugin-timeout', '2500');
  assert.deepEqual(applied, [2500]);
  const timeout = after.settings.find((s) => s.key === 'plugin-timeout');
  assert.deepEqual([timeout?.value, timeout?.origin, timeout?.source], [2500, 'console', undefined]);
  settings.update('log-level', 'debug');
  assert.deepEqual(applied, [2500, 'debug']);
  const refused = (fn: () => unknown, pattern: RegExp) => assert.throws(fn, (e: unknown) => e instanceof JunctionError && e.code === 'InvalidArguments' && pattern.test(e.message));
  refused(() => settings.update('plugin-timeout', 5), /integer from 100/);
  refused(() => settings.update('log-level', 'loud'), /one of error, warn, info, debug/);
  refused(() => settings.update('mode', 'autonomous-trusted'), /cannot change while Junction runs/);
  refused(() => settings.update('nope', 1), /Unknown setting/);
  assert.deepEqual(applied, [2500, 'debug'], 'refused changes apply nothing');
});
