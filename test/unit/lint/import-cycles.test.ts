import { after, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { cyclesIn, importCycles } from '../../../scripts/eslint/import-cycles.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

// A small tree on disk, because the rule follows imports through the files they name.
const root = mkdtempSync(join(tmpdir(), 'junction-cycles-'));
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
write('a.ts', "import { b } from './b.js';\nexport const a = b;\n");
write('b.ts', "import type { A } from './deep/c.js';\nexport const b = 1;\nexport type B = A;\n");
write('deep/c.ts', "export type { A } from '../a-type.js';\n");
write('a-type.ts', "import type { B } from './b.js';\nexport type A = B;\n");
write('leaf.ts', 'export const leaf = 1;\n');
after(() => rmSync(root, { recursive: true, force: true }));
const options = [{ roots: [root] }];

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } });
tester.run('import-cycles', importCycles, {
  valid: [
    { filename: join(root, 'a.ts'), code: "import { leaf } from './leaf.js';", options },
    { filename: join(root, 'leaf.ts'), code: "import { a } from './a.js';", options },
    { filename: join(root, 'a.ts'), code: "import { z } from 'zod';", options },
  ],
  invalid: [
    // b → deep/c → a-type → b: type-only imports and re-exports count.
    { filename: join(root, 'b.ts'), code: "import type { A } from './deep/c.js';", options, errors: [{ messageId: 'cycle' }] },
    { filename: join(root, 'a-type.ts'), code: "export type { B } from './b.js';", options, errors: [{ messageId: 'cycle' }] },
    { filename: join(root, 'leaf.ts'), code: "const m = import('./leaf.js');", options, errors: [{ messageId: 'cycle' }] },
  ],
});

test('the whole tree (src-main, plugins, src-renderer) has no import cycle', () => {
  assert.deepEqual(cyclesIn(), []);
});

test('cyclesIn names every module of a cycle once', () => {
  assert.deepEqual(cyclesIn([root]).map((cycle) => cycle.map((file) => file.slice(file.lastIndexOf('junction-cycles-')).replace(/^junction-cycles-[^/]+\//, ''))), [['a-type.ts', 'b.ts', 'deep/c.ts']]);
});
