import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, parseArgv, readEnv, resolveConfig } from '../../../src-main/app/config/index.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';

const none = { values: [], problems: [] };

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof JunctionError);
    assert.equal(error.code, 'ConfigInvalid');
    return error.details?.problems as string[];
  }
  assert.fail('expected ConfigInvalid');
}

test('defaults: loopback, port 8080, 1 MiB frames, 10 s plugin deadline', () => {
  const config = resolveConfig([none]);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8080);
  assert.equal(config['max-frame-bytes'], 134_217_728);
  assert.equal(config['plugin-timeout'], 10_000);
  assert.equal(config.mode, 'transactional');
  assert.equal(config.token, undefined);
});

test('all three argv spellings are accepted and coerced', () => {
  const { parsed, problems } = parseArgv(['serve', 'port=9000', '--mode', 'approval-required', '--plugin-timeout=2500', '--demo']);
  assert.deepEqual(problems, []);
  assert.deepEqual(parsed.positionals, ['serve']);
  const config = resolveConfig([parsed]);
  assert.equal(config.port, 9000);
  assert.equal(config.mode, 'approval-required');
  assert.equal(config['plugin-timeout'], 2500);
  assert.equal(config.demo, true);
});

test('command line wins over environment, environment over settings file', () => {
  const cli = parseArgv(['--port', '1111']).parsed;
  const env = readEnv({ JUNCTION_PORT: '2222', JUNCTION_MODE: 'inspection-only', PATH: '/bin' });
  const settings = { values: [{ key: 'mode', value: 'autonomous-trusted', origin: 'settings file' as const, source: '"mode"' }, { key: 'log-level', value: 'debug', origin: 'settings file' as const, source: '"log-level"' }], problems: [] };
  const config = resolveConfig([cli, env, settings]);
  assert.equal(config.port, 1111);
  assert.equal(config.mode, 'inspection-only');
  assert.equal(config['log-level'], 'debug');
});

test('unknown and malformed values fail naming every key and origin', () => {
  const problems = problemsOf(() =>
    resolveConfig([parseArgv(['--prot', '80', 'port=99999']).parsed, readEnv({ JUNCTION_MODE: 'yolo', JUNCTION_NOPE: '1' })]),
  );
  assert.equal(problems.length, 4);
  assert.match(problems.join('\n'), /JUNCTION_NOPE: unknown setting/);
  assert.match(problems.join('\n'), /--prot \(command line\): unknown setting 'prot'/);
  assert.match(problems.join('\n'), /port \(command line\): expected an integer from 0 to 65535, got "99999"/);
  assert.match(problems.join('\n'), /JUNCTION_MODE \(environment\): expected one of inspection-only/);
});

test('a bad value in a lower layer is still reported even when a higher layer sets the key', () => {
  const problems = problemsOf(() => resolveConfig([parseArgv(['port=1']).parsed, readEnv({ JUNCTION_PORT: 'eighty' })]));
  assert.deepEqual(problems.length, 1);
  assert.match(problems[0]!, /JUNCTION_PORT/);
});

test('a flag without a value is refused unless boolean', () => {
  const { problems } = parseArgv(['--port']);
  assert.match(problems[0]!, /--port: a value is required/);
});

test('settings file: read from disk, unknown keys and invalid JSON are clear errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'junction-config-'));
  const good = join(dir, 'good.json');
  writeFileSync(good, JSON.stringify({ port: 4321, workspace: ['a', 'b'] }));
  const loaded = loadConfig(['--settings', good], {});
  assert.equal(loaded.config.port, 4321);
  assert.deepEqual(loaded.config.workspace, ['a', 'b']);

  const unknown = join(dir, 'unknown.json');
  writeFileSync(unknown, JSON.stringify({ colour: 'blue' }));
  assert.match(problemsOf(() => loadConfig(['--settings', unknown], {})).join(''), /"colour" in .*unknown setting 'colour'/);

  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{ port: ');
  assert.throws(() => loadConfig(['--settings', broken], {}), (e: unknown) => e instanceof JunctionError && /not valid JSON/.test(e.message));
  assert.throws(() => loadConfig(['--settings', join(dir, 'missing.json')], {}), /cannot read/);
  assert.equal(loadConfig([], { XDG_CONFIG_HOME: join(dir, 'nothing-here') }).config.port, 8080);
});

test('an unknown setting suggests the nearest known ones, on the command line, in the environment and in the settings file', () => {
  const problems = problemsOf(() =>
    resolveConfig([
      parseArgv(['--prot', '80', 'plugin-timout=5', '--colour', 'x']).parsed,
      readEnv({ JUNCTION_STATE_DIRS: '/x' }),
      { values: [{ key: 'workspaces', value: ['a'], origin: 'settings file' as const, source: '"workspaces" in settings.json' }] },
    ]),
  );
  assert.match(problems.join('\n'), /"workspaces" in settings\.json \(settings file\): unknown setting 'workspaces'\. Did you mean 'workspace'\?/);
  assert.match(problems.join('\n'), /--prot \(command line\): unknown setting 'prot'\. Did you mean 'port'/);
  assert.match(problems.join('\n'), /plugin-timout \(command line\): unknown setting 'plugin-timout'\. Did you mean 'plugin-timeout'\?/);
  assert.match(problems.join('\n'), /unknown setting 'colour'\.$/m, 'nothing close to colour: no guess');
  assert.match(problems.join('\n'), /JUNCTION_STATE_DIRS: unknown setting\. Did you mean 'JUNCTION_STATE_DIR'\?/);
});

test('stray arguments are refused; when npm swallowed a setting the message says so and how to pass it', () => {
  const npmStart = { npm_lifecycle_event: 'start', XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'junction-config-')) };
  // `npm start --port 9000`: npm keeps --port (npm_config_port=true) and passes '9000' on.
  const swallowed = problemsOf(() => loadConfig(['9000', 'demo=true'], { ...npmStart, npm_config_port: 'true' }));
  assert.deepEqual(swallowed, ['--port was taken by npm, not passed to Junction: npm passes on only what follows --. Run: npm start -- --port 9000']);
  // `npm start --port=9000`: nothing reaches Junction at all.
  assert.match(problemsOf(() => loadConfig([], { ...npmStart, npm_config_port: '9000' }))[0]!, /Run: npm start -- --port 9000$/);
  assert.match(problemsOf(() => loadConfig(['9000'], npmStart))[0]!, /unexpected argument '9000'.*npm start -- --port 9000/);
  assert.match(problemsOf(() => loadConfig(['extra'], { XDG_CONFIG_HOME: npmStart.XDG_CONFIG_HOME }))[0]!, /^unexpected argument 'extra': settings are key=value/);
  // npm's own options (audit=false in an .npmrc) are exported for every script and are not a swallowed setting.
  assert.doesNotThrow(() => loadConfig([], { ...npmStart, npm_config_audit: 'false', npm_config_workspace: '' }));
});
