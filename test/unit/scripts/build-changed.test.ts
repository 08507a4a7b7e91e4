import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rendererInputs, staleBecause } from '../../../scripts/build-changed.js';
import { PROJECT_ROOT } from '../../../src-main/app/paths.js';

/** A renderer folder whose source imports a contract module from outside it, as src-renderer does. */
function layout() {
  const root = mkdtempSync(join(tmpdir(), 'junction-build-'));
  const renderer = join(root, 'src-renderer');
  mkdirSync(join(renderer, 'src'), { recursive: true });
  mkdirSync(join(renderer, 'dist'), { recursive: true });
  mkdirSync(join(root, 'src-main', 'control'), { recursive: true });
  mkdirSync(join(root, 'src-main', 'shared'), { recursive: true });
  writeFileSync(join(renderer, 'src', 'main.tsx'), "import type { View } from '../../src-main/control/api.js';\nimport './styles.css';\n");
  writeFileSync(join(renderer, 'src', 'styles.css'), 'body {}\n');
  writeFileSync(join(root, 'src-main', 'control', 'api.ts'), "import type { E } from '../shared/errors.js';\nexport type View = E;\n");
  writeFileSync(join(root, 'src-main', 'shared', 'errors.ts'), 'export type E = string;\n');
  writeFileSync(join(root, 'src-main', 'control', 'unrelated.ts'), 'export {};\n');
  const output = join(renderer, 'dist', 'index.html');
  writeFileSync(output, '<!doctype html>');
  return { root, renderer, output };
}

const setTime = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

test('the console bundle is built from its folder and the modules it imports from outside it, never from its own output', () => {
  const { root, renderer } = layout();
  const inputs = rendererInputs(renderer, [join(root, 'package.json')]);
  assert.deepEqual(
    inputs.map((f) => f.slice(root.length + 1)).sort(),
    ['src-main/control/api.ts', 'src-main/shared/errors.ts', 'src-renderer/src/main.tsx', 'src-renderer/src/styles.css'],
    'the missing package.json is left out; unrelated core modules and dist/ are not inputs',
  );
});

test('the bundle is stale when missing or older than any input, and fresh otherwise', () => {
  const { root, renderer, output } = layout();
  const inputs = rendererInputs(renderer, []);
  for (const file of inputs) setTime(file, 1_000_000);
  setTime(output, 2_000_000);
  assert.equal(staleBecause(output, inputs), undefined);
  setTime(join(root, 'src-main', 'shared', 'errors.ts'), 3_000_000);
  assert.match(staleBecause(output, inputs) ?? '', /src-main\/shared\/errors\.ts changed since the last build/);
  assert.match(staleBecause(join(renderer, 'dist', 'missing.html'), inputs) ?? '', /does not exist/);
});

test('npm start builds only what changed instead of running the full build every time', () => {
  const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  for (const name of ['start', 'serve']) {
    assert.match(scripts[name]!, /^node --import tsx scripts\/build-changed\.ts && /, name);
  }
  const buildConfig = JSON.parse(readFileSync(join(PROJECT_ROOT, 'tsconfig.build.json'), 'utf8')) as { compilerOptions: { incremental?: boolean; tsBuildInfoFile?: string } };
  assert.equal(buildConfig.compilerOptions.incremental, true);
  assert.match(buildConfig.compilerOptions.tsBuildInfoFile ?? '', /^dist\//, 'build info lives with the output, so removing dist/ forces a full build');
});
