/**
 * ESLint rule: no import cycle among the modules of src-main, plugins and src-renderer, type-only
 * imports included (a cycle of types still ties the modules' meanings together). Each import of the
 * linted file is followed through the modules it reaches; one that leads back is reported with the
 * whole cycle. Imports are read with the TypeScript scanner and kept per file until it changes.
 *
 *   cyclesIn(roots)   every cycle of the tree once, for tests and scripts
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const REPO_ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
export const CYCLE_ROOTS = ['src-main', 'plugins', 'src-renderer'].map((dir) => resolve(REPO_ROOT, dir));

/** What a compiled specifier names in source: `./x.js` is `./x.ts` or `./x.tsx`, `.cjs` and `.mjs` their `.cts`/`.mts`. */
const SOURCE_FORMS = [
  [/\.js$/, ['.ts', '.tsx']],
  [/\.cjs$/, ['.cts']],
  [/\.mjs$/, ['.mts']],
];

const cache = new Map();

function fileStamp(file) {
  try {
    const stat = statSync(file);
    return stat.isFile() ? stat.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const [pattern, endings] of SOURCE_FORMS) {
    if (!pattern.test(base)) continue;
    for (const ending of endings) {
      const candidate = base.replace(pattern, ending);
      if (fileStamp(candidate) !== undefined) return candidate;
    }
  }
  return fileStamp(base) === undefined ? undefined : base;
}

const insideRoots = (file, roots) => roots.some((root) => file.startsWith(root + sep));

/** The modules of `roots` that `file` imports (static, dynamic, re-exports, type-only), as absolute paths. */
export function importsOf(file, roots = CYCLE_ROOTS, text) {
  const stamp = text === undefined ? fileStamp(file) : undefined;
  const cached = cache.get(file);
  if (text === undefined && cached && cached.stamp === stamp) return cached.imports.filter((target) => insideRoots(target, roots));
  const source = text ?? readFileSync(file, 'utf8');
  const imports = [];
  for (const imported of ts.preProcessFile(source, true, true).importedFiles) {
    const target = resolveSpecifier(file, imported.fileName);
    if (target !== undefined && !imports.includes(target)) imports.push(target);
  }
  if (text === undefined) cache.set(file, { stamp, imports });
  return imports.filter((target) => insideRoots(target, roots));
}

/** The path from `start` back to `goal` through imports, or undefined when `goal` is not reachable. */
function pathBack(start, goal, roots) {
  const parent = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    for (const next of importsOf(file, roots)) {
      if (next === goal) {
        const path = [goal];
        for (let at = file; at !== undefined; at = parent.get(at)) path.unshift(at);
        return path;
      }
      if (parent.has(next)) continue;
      parent.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

/** Every cycle of the modules under `roots` once (Tarjan's strongly connected components), as lists of repo-relative paths. */
export function cyclesIn(roots = CYCLE_ROOTS) {
  const files = roots.flatMap((root) => ts.sys.readDirectory(root, ['.ts', '.tsx', '.cts', '.mts'], ['**/node_modules/**', '**/dist/**']));
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let counter = 0;
  const visit = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of importsOf(file, roots)) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file), index.get(next)));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || importsOf(file, roots).includes(file)) cycles.push(component.map((f) => relative(REPO_ROOT, f)).sort());
  };
  for (const file of files.map((f) => resolve(f)).sort()) if (!index.has(file)) visit(file);
  return cycles;
}

export const importCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycles among the modules of src-main, plugins and src-renderer.' },
    schema: [{ type: 'object', properties: { roots: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
    messages: { cycle: 'Import cycle: {{cycle}}. Move what both sides need below them, or invert the dependency.' },
  },
  create(context) {
    const roots = (context.options[0]?.roots ?? CYCLE_ROOTS).map((root) => resolve(root));
    const importer = resolve(context.filename);
    if (!insideRoots(importer, roots)) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolveSpecifier(importer, source.value);
      if (target === undefined || !insideRoots(target, roots)) return;
      const path = target === importer ? [importer, importer] : pathBack(target, importer, roots);
      if (!path) return;
      const cycle = [importer, ...path.slice(target === importer ? 1 : 0)].map((file) => relative(REPO_ROOT, file)).join(' -> ');
      context.report({ node: source, messageId: 'cycle', data: { cycle } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
