/** Shared set-up for recovery tests: real temp directories, a workspace and a journal over them. */
import { cp, mkdtemp, mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '../../../src-main/recovery/index.js';

export interface Sandbox {
  root: string;
  stateDir: string;
  workspace: string;
  cleanup(): Promise<void>;
}

export async function makeSandbox(prefix = 'jx-recovery-'): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const stateDir = join(root, 'state');
  const workspace = join(root, 'workspace');
  await mkdir(workspace, { recursive: true });
  return { root, stateDir, workspace, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, ...path.split('/'));
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

/** Every file under `root` (POSIX relative path → content), hidden ones included. */
export async function readTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out[relative(root, full).split('\\').join('/')] = await readFile(full, 'utf8');
    }
  }
  await walk(root);
  return out;
}

export function shaOf(text: string): string {
  return sha256(text);
}

/** relative path → SHA-256 of the exact bytes, for byte-identical comparisons of evidence. */
export async function hashTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out[relative(root, full).split('\\').join('/')] = sha256(await readFile(full));
    }
  }
  await walk(root);
  return out;
}

export const FIXTURE_WORKSPACE_TOKEN = '/__junction_fixture_workspace__';
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'recovery');

/**
 * Copies a frozen fixture (e.g. `v1/completed`) into a fresh sandbox and points its manifests at the
 * copy's workspace. The fixture itself is never recovered in place.
 */
export async function copyFixture(name: string): Promise<Sandbox> {
  const box = await makeSandbox('jx-fixture-');
  await cp(join(FIXTURES, ...name.split('/'), 'state'), box.stateDir, { recursive: true });
  await rm(box.workspace, { recursive: true, force: true });
  await cp(join(FIXTURES, ...name.split('/'), 'workspace'), box.workspace, { recursive: true });
  const manifests = join(box.stateDir, 'manifests');
  for (const file of await readdir(manifests)) {
    if (!file.endsWith('.json')) continue;
    const path = join(manifests, file);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.split(FIXTURE_WORKSPACE_TOKEN).join(JSON.stringify(box.workspace).slice(1, -1)));
  }
  return box;
}
