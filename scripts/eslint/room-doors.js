/**
 * ESLint rule: a room (a folder of src-main or plugins with an index.ts) is entered only through that
 * door, and contracts/ imports no other room. The innermost room that holds the imported module but
 * not the importing file is the one whose door applies, so sub-rooms (bridge/signalr, host/tools) and
 * the parts of a plugin package (plugins/sdk, plugins/sdk/wire) have doors too.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const REPO_ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
const SOURCE_ROOT = join(REPO_ROOT, 'src-main');
const ROOTS = [SOURCE_ROOT, join(REPO_ROOT, 'plugins')];
const CONTRACTS = join(SOURCE_ROOT, 'contracts');

const inside = (dir, file) => file.startsWith(dir + sep);

function doorOf(root, target, importer) {
  for (let dir = dirname(target); inside(root, dir + sep) && dir !== root; dir = dirname(dir)) {
    if (inside(dir, importer)) return undefined;
    if (existsSync(join(dir, 'index.ts'))) return dir;
  }
  return undefined;
}

export const roomDoors = {
  meta: {
    type: 'problem',
    docs: { description: 'Rooms import each other only through their index.ts door; contracts/ depends on nothing.' },
    schema: [],
    messages: {
      throughDoor: "Import '{{room}}' through its door '{{door}}', not its inner module '{{module}}'.",
      contractsDependOnNothing: "contracts/ depends on nothing: '{{module}}' is outside it.",
    },
  },
  create(context) {
    const importer = context.filename;
    if (!ROOTS.some((root) => inside(root, importer))) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = resolve(dirname(importer), source.value.replace(/\.js$/, ''));
      if (inside(CONTRACTS, importer) && !inside(CONTRACTS, target)) {
        context.report({ node: source, messageId: 'contractsDependOnNothing', data: { module: source.value } });
        return;
      }
      const root = ROOTS.find((r) => inside(r, target));
      if (root === undefined) return;
      const door = doorOf(root, target, importer);
      if (door === undefined || target === join(door, 'index')) return;
      const room = relative(REPO_ROOT, door);
      context.report({ node: source, messageId: 'throughDoor', data: { room, door: `${room}/index.js`, module: source.value } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
