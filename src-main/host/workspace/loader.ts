/**
 * Reads a workspace directory from disk: the TS/JS documents it holds and its compiler options.
 * The only place a workspace's contents are read in bulk.
 */
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type ts from 'typescript';
import { typescript } from './typescript.js';
import { isWithin } from './paths.js';

export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'build', 'out', 'coverage']);

export function isSourcePath(path: string): boolean {
  return SOURCE_EXTENSIONS.some((ext) => path.endsWith(ext));
}

/** True for paths the loader never reads (dependencies, build output, dot-folders), so changes there are not workspace changes. */
export function isIgnoredPath(relative: string): boolean {
  return relative.split('/').some((segment, i, all) => i < all.length - 1 && (SKIPPED_DIRECTORIES.has(segment) || segment.startsWith('.')));
}

async function walk(realRoot: string, relative: string, out: Map<string, string>): Promise<void> {
  const entries = await readdir(join(realRoot, relative), { withFileTypes: true });
  for (const entry of entries) {
    const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name) && !entry.name.startsWith('.')) await walk(realRoot, rel, out);
    } else if (isSourcePath(entry.name) && (entry.isFile() || entry.isSymbolicLink())) {
      const text = await readInside(realRoot, rel);
      if (text !== undefined) out.set(rel, text);
    }
  }
}

/** Reads a workspace file unless it is (or resolves through a symlink to) something outside the root. */
export async function readInside(realRoot: string, relative: string): Promise<string | undefined> {
  const full = join(realRoot, relative);
  try {
    const stat = await lstat(full);
    if (stat.isSymbolicLink() && !isWithin(realRoot, await realpath(full))) return undefined;
    return await readFile(full, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function loadDocuments(realRoot: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await walk(realRoot, '', out);
  return out;
}

const defaultOptions = (): ts.CompilerOptions => ({
  target: typescript().ScriptTarget.ES2022,
  module: typescript().ModuleKind.NodeNext,
  moduleResolution: typescript().ModuleResolutionKind.NodeNext,
  strict: true,
  allowJs: true,
  checkJs: false,
  noEmit: true,
  skipLibCheck: true,
});

export interface ProjectConfig {
  options: ts.CompilerOptions;
  /** Where the options came from, for workspace-status. */
  source: 'tsconfig.json' | 'defaults';
  errors: string[];
}

export function readProjectConfig(realRoot: string): ProjectConfig {
  const ts = typescript();
  const configPath = join(realRoot, 'tsconfig.json');
  if (!ts.sys.fileExists(configPath)) return { options: defaultOptions(), source: 'defaults', errors: [] };
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  const flatten = (d: ts.Diagnostic): string => ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (read.error) return { options: defaultOptions(), source: 'defaults', errors: [flatten(read.error)] };
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, realRoot, undefined, configPath);
  return { options: { ...parsed.options, noEmit: true }, source: 'tsconfig.json', errors: parsed.errors.map(flatten) };
}
