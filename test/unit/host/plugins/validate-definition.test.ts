import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { assembleCatalogue, validatePluginDefinition } from '../../../../src-main/host/plugins/index.js';
import { boundedCollectionSchema, limitSchema, PLUGIN_API_V1 } from '../../../../plugins/host-api/index.js';

const query = (overrides: Record<string, unknown> = {}) => ({
  name: 'list-items',
  description: 'Lists items.',
  request: z.object({ limit: limitSchema(10) }),
  response: z.object({ items: boundedCollectionSchema(z.string()) }),
  handler: { handle: () => ({ items: { items: [], hasMore: false } }) },
  ...overrides,
});
const plugin = (overrides: Record<string, unknown> = {}) => ({ id: 'unit.sample', apiVersion: PLUGIN_API_V1, version: '2.1.0-beta.1', queries: [query()], ...overrides });

describe('plugin definition validation', () => {
  test('a well-formed plugin is enabled and its published input schema merges the host envelope', () => {
    const { diagnostic, plugin: validated } = validatePluginDefinition(plugin(), 'mem');
    assert.deepEqual(diagnostic.errors, []);
    assert.equal(diagnostic.enabled, true);
    const schema = validated!.tools[0]!.inputSchema as unknown as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(schema.properties).sort(), ['expectedSnapshot', 'limit', 'workspace']);
  });

  test('a frozen handler object with data fields does not warn; a mutable one does', () => {
    const frozen = validatePluginDefinition(plugin({ queries: [query({ handler: Object.freeze({ prefix: 'x', handle: () => ({}) }) })] }), 'mem');
    assert.deepEqual(frozen.diagnostic.warnings, []);
    const mutable = validatePluginDefinition(plugin({ queries: [query({ handler: { seen: [], handle: () => ({}) } })] }), 'mem');
    assert.deepEqual(mutable.diagnostic.warnings.map((w) => w.category), ['handlerState']);
    assert.equal(mutable.diagnostic.enabled, true);
  });

  test('a top-level array property counts as a collection and needs a limit', () => {
    const { diagnostic } = validatePluginDefinition(plugin({ queries: [query({ request: z.object({}), response: z.object({ names: z.array(z.string()) }) })] }), 'mem');
    assert.deepEqual(diagnostic.errors.map((e) => e.category), ['unboundedCollection']);
  });

  test('a required limit is rejected even with a default elsewhere right', () => {
    const { diagnostic } = validatePluginDefinition(plugin({ queries: [query({ request: z.object({ limit: z.number().int().min(0).nullable() }) })] }), 'mem');
    assert.match(diagnostic.errors[0]!.message, /must be optional/);
  });

  test('semver is strict: a leading v is not accepted', () => {
    assert.equal(validatePluginDefinition(plugin({ version: 'v1.0.0' }), 'mem').diagnostic.errors[0]!.category, 'version');
  });

  test('a mutation tool may not declare a response schema', () => {
    const { diagnostic } = validatePluginDefinition(plugin({ queries: [], mutations: [query({ name: 'do-thing', request: z.object({}) })] }), 'mem');
    assert.deepEqual(diagnostic.errors.map((e) => e.category), ['responseSchema']);
  });

  test('a plugin with no tools is rejected', () => {
    assert.equal(validatePluginDefinition(plugin({ queries: [] }), 'mem').diagnostic.errors[0]!.category, 'definition');
  });

  test('the catalogue keeps the first owner of a name and disables the later plugin whole', () => {
    const first = validatePluginDefinition(plugin(), 'one');
    const second = validatePluginDefinition(plugin({ id: 'unit.other' }), 'two');
    const catalogue = assembleCatalogue([first, second]);
    assert.deepEqual(catalogue.pluginDiagnostics().map((d) => d.enabled), [true, false]);
    assert.equal(catalogue.tools.get('list-items')!.pluginId, 'unit.sample');
  });
});
