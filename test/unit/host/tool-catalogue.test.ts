import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { HOST_MODES } from '../../../src-main/host/index.js';
import { catalogue } from './catalogue.js';

const READ_TOOLS = ['diagnostics', 'document-read', 'find-references', 'find-symbols', 'list-code-actions', 'prepare-fix-all', 'recovery-status', 'server-status', 'workspace-open', 'workspace-reload', 'workspace-status'];
const MUTATION_TOOLS = ['stage-code-action', 'stage-edits', 'transaction-commit', 'transaction-preview', 'transaction-rollback', 'transaction-start'];
const names = (tools: ReadonlyArray<{ name: string }>) => tools.map((t) => t.name).sort();

type Schema = { type?: unknown; properties?: Record<string, Schema>; anyOf?: Schema[]; default?: unknown; minimum?: number; required?: string[] };

describe('built-in tool catalogue (host tools and code actions, as published)', () => {
  test('inspection-only publishes no mutation tool', () => {
    assert.deepEqual(names(catalogue('inspection-only', 'publish')), READ_TOOLS);
  });

  test('approval-required adds transaction-review and requires a receipt to commit', () => {
    const tools = catalogue('approval-required', 'publish');
    assert.deepEqual(names(tools), [...READ_TOOLS, ...MUTATION_TOOLS, 'transaction-review'].sort());
    const commit = tools.find((t) => t.name === 'transaction-commit')!;
    assert.ok((commit.inputSchema.required ?? []).includes('receipt'));
  });

  test('other mutating modes publish the transaction tools without a receipt', () => {
    for (const mode of ['transactional', 'autonomous-trusted', 'compiler-validation'] as const) {
      const tools = catalogue(mode, 'publish');
      assert.deepEqual(names(tools), [...READ_TOOLS, ...MUTATION_TOOLS].sort(), mode);
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

  test('output schemas are published (admitting the structured error envelope) or omitted as configured', () => {
    for (const tool of catalogue('transactional', 'publish')) {
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      const alternatives = (tool.outputSchema as Schema).anyOf ?? [];
      assert.ok(alternatives.some((s) => s.required?.includes('error') && s.properties?.error?.required?.includes('code')), `${tool.name} admits { error }`);
    }
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
