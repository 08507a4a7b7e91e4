import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadPlugins, type PluginCatalogue, type PluginDiagnostic } from '../../../../src-main/host/plugins/index.js';

const fixtures = (name: string) => fileURLToPath(new URL(`../../../fixtures/plugins/${name}/`, import.meta.url));

function bySource(diagnostics: PluginDiagnostic[], file: string): PluginDiagnostic {
  const found = diagnostics.find((d) => d.source.endsWith(`/${file}`));
  assert.ok(found, `no diagnostic for ${file}`);
  return found;
}

function categories(d: PluginDiagnostic): string[] {
  return d.errors.map((e) => e.category).sort();
}

describe('loading the broken fixture plugins', () => {
  let catalogue: PluginCatalogue;
  let diagnostics: PluginDiagnostic[];
  before(async () => {
    catalogue = await loadPlugins({ directory: fixtures('broken'), reservedToolNames: ['server-status', 'document-read'] });
    diagnostics = catalogue.pluginDiagnostics();
  });

  const disabledWith = (file: string, category: string) => {
    const d = bySource(diagnostics, file);
    assert.equal(d.enabled, false);
    assert.deepEqual(d.tools, []);
    assert.ok(categories(d).includes(category), `${file}: expected ${category}, got ${JSON.stringify(d.errors)}`);
    return d;
  };

  test('a bare array response is rejected as a non-object response', () => {
    disabledWith('non-object-response.ts', 'responseSchema');
  });
  test('a dictionary response is rejected as a non-object response', () => {
    disabledWith('dictionary-response.ts', 'responseSchema');
  });
  test('a collection without a limit is rejected', () => {
    const d = disabledWith('missing-limit.ts', 'unboundedCollection');
    assert.match(d.errors[0]!.message, /no 'limit' property/);
  });
  test('a limit that is not nullable, has default 0 and a negative minimum is rejected with each problem named', () => {
    const d = disabledWith('bad-limit.ts', 'unboundedCollection');
    const message = d.errors.find((e) => e.category === 'unboundedCollection')!.message;
    assert.match(message, /nullable/);
    assert.match(message, /minimum 0/);
    assert.match(message, /positive integer default/);
  });
  test('a tool name declared twice within a plugin is rejected', () => {
    disabledWith('duplicate-tool-name.ts', 'duplicateTool');
  });
  test('a tool name that is not kebab-case is rejected', () => {
    disabledWith('invalid-tool-name.ts', 'toolName');
  });
  test('a request schema without a JSON Schema projection is rejected', () => {
    const d = disabledWith('invalid-schema.ts', 'schema');
    assert.match(d.errors[0]!.message, /Date/);
  });
  test('an apiVersion other than PLUGIN_API_V1 is rejected', () => {
    disabledWith('api-version-mismatch.ts', 'apiVersion');
  });
  test('a version that is not semver is rejected', () => {
    const d = disabledWith('invalid-semver.ts', 'version');
    assert.equal(d.version, undefined);
  });
  test('a request that declares a host-owned property is rejected', () => {
    disabledWith('reserved-property.ts', 'reservedProperty');
  });
  test('a tool that shadows a host tool is rejected', () => {
    disabledWith('host-collision.ts', 'duplicateTool');
  });
  test('a handler without handle() is rejected', () => {
    disabledWith('bad-handler.ts', 'handler');
  });
  test('a module that throws during import is reported, not thrown', () => {
    const d = disabledWith('import-fails.ts', 'module');
    assert.match(d.errors[0]!.message, /failed during evaluation/);
  });
  test('a module without a default export is reported', () => {
    disabledWith('no-default-export.ts', 'definition');
  });
  test('every independent error of one plugin is reported together', () => {
    const d = bySource(diagnostics, 'many-errors.ts');
    assert.equal(d.enabled, false);
    for (const c of ['id', 'apiVersion', 'version', 'toolName', 'description', 'handler', 'schema', 'responseSchema']) {
      assert.ok(categories(d).includes(c), `missing ${c} in ${JSON.stringify(categories(d))}`);
    }
  });
  test('a later plugin reusing an earlier plugin id and tool name is disabled whole; the earlier keeps its tool', () => {
    const first = bySource(diagnostics, 'collision-first.ts');
    assert.equal(first.enabled, true);
    assert.deepEqual(first.tools, ['contested-name']);
    const second = disabledWith('collision-second.ts', 'duplicateTool');
    assert.ok(categories(second).includes('id'));
    assert.equal(catalogue.tools.has('uncontested-name'), false, 'a disabled plugin publishes none of its tools');
    assert.deepEqual([...catalogue.tools.keys()], ['contested-name']);
  });
});

describe('loading the valid fixture plugins', () => {
  test('all load enabled; warnings are published without disabling', async () => {
    const catalogue = await loadPlugins({ directory: fixtures('valid') });
    const diagnostics = catalogue.pluginDiagnostics();
    assert.deepEqual(
      diagnostics.map((d) => [d.pluginId, d.enabled, d.errors.length]),
      [
        ['examples.add-file-header', true, 0],
        ['fixtures.cache-probe', true, 0],
        ['fixtures.faulty', true, 0],
        ['fixtures.oversized-schema', true, 0],
        ['fixtures.stateful-handler', true, 0],
        ['fixtures.symbol-insight', true, 0],
        ['examples.todo-comments', true, 0],
      ],
    );
    const oversized = diagnostics.find((d) => d.pluginId === 'fixtures.oversized-schema')!;
    assert.deepEqual(oversized.warnings.map((w) => w.category), ['schemaSize']);
    const stateful = diagnostics.find((d) => d.pluginId === 'fixtures.stateful-handler')!;
    assert.deepEqual(stateful.warnings.map((w) => [w.category, w.tool]), [['handlerState', 'count-calls']]);
    assert.match(stateful.warnings[0]!.message, /calls/);
    assert.equal(diagnostics.find((d) => d.pluginId === 'examples.todo-comments')!.version, '1.0.0');
  });

  test('diagnostics are copies: callers cannot edit the catalogue through them', async () => {
    const catalogue = await loadPlugins({ directory: fixtures('valid') });
    catalogue.pluginDiagnostics()[0]!.enabled = false;
    assert.equal(catalogue.pluginDiagnostics()[0]!.enabled, true);
  });
});
