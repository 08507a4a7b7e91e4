import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { HOST_MODES } from '../../../src-main/host/index.js';
import { catalogue } from './catalogue.js';

const READ_TOOLS = ['diagnostics', 'document-read', 'find-references', 'find-symbols', 'recovery-status', 'server-status', 'workspace-open', 'workspace-reload', 'workspace-status'];
const MUTATION_TOOLS = ['stage-edits', 'transaction-commit', 'transaction-preview', 'transaction-rollback', 'transaction-start'];

type Schema = { type?: unknown; properties?: Record<string, Schema>; anyOf?: Schema[]; default?: unknown; minimum?: number; required?: string[] };

describe('host tool catalogue', () => {
  test('inspection-only publishes no mutation tool', () => {
    assert.deepEqual(catalogue('inspection-only', 'publish').map((t) => t.name), READ_TOOLS);
  });

  test('approval-required adds transaction-review and requires a receipt to commit', () => {
    const tools = catalogue('approval-required', 'publish');
    assert.deepEqual(tools.map((t) => t.name), [...READ_TOOLS, ...MUTATION_TOOLS, 'transaction-review'].sort());
    const commit = tools.find((t) => t.name === 'transaction-commit')!;
    assert.ok((commit.inputSchema.required ?? []).includes('receipt'));
  });

  test('other mutating modes publish the transaction tools without a receipt', () => {
    for (const mode of ['transactional', 'autonomous-trusted', 'compiler-validation'] as const) {
      const tools = catalogue(mode, 'publish');
      assert.deepEqual(tools.map((t) => t.name), [...READ_TOOLS, ...MUTATION_TOOLS].sort(), mode);
      const commit = tools.find((t) => t.name === 'transaction-commit')!;
      assert.equal(commit.inputSchema.properties?.receipt, undefined, mode);
    }
  });

  test('names are kebab-case and every minified input schema is at most 5000 bytes', () => {
    for (const mode of HOST_MODES) {
      for (const tool of catalogue(mode, 'publish')) {
        assert.match(tool.name, /^[a-z]+(-[a-z]+)*$/);
        const bytes = Buffer.byteLength(JSON.stringify(tool.inputSchema), 'utf8');
        assert.ok(bytes <= 5000, `${mode}/${tool.name} input schema is ${bytes} bytes`);
      }
    }
  });

  test('output schemas are published or omitted as configured', () => {
    assert.ok(catalogue('transactional', 'publish').every((t) => t.outputSchema?.type === 'object'));
    assert.ok(catalogue('transactional', 'omit').every((t) => t.outputSchema === undefined));
  });

  test('every limit is a nullable integer with a positive default and minimum 0', () => {
    let seen = 0;
    for (const tool of catalogue('approval-required', 'publish')) {
      const limit = (tool.inputSchema.properties as Record<string, Schema> | undefined)?.limit;
      if (!limit) continue;
      seen++;
      assert.ok(typeof limit.default === 'number' && limit.default > 0, tool.name);
      const types = (limit.anyOf ?? []).map((s) => s.type);
      assert.deepEqual(types.sort(), ['integer', 'null'], tool.name);
      assert.equal(limit.anyOf?.find((s) => s.type === 'integer')?.minimum, 0, tool.name);
    }
    assert.ok(seen >= 5);
  });
});
