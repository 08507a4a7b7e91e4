/**
 * Loads every plugin module in a directory (top-level `.js`/`.mjs`/`.ts` files, and folders with an
 * `index` module) in name order, so collisions resolve the same way on every start. A module that
 * fails to import is reported like any other authoring error and loads nothing.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assembleCatalogue, type PluginCatalogue } from './catalogue.js';
import { validatePluginDefinition, type ValidationOutcome } from './validate-definition.js';
import { errorMessage } from '../../shared/index.js';

const MODULE_EXTENSIONS = ['.js', '.mjs', '.ts'];

function isModuleFile(name: string): boolean {
  return !name.endsWith('.d.ts') && MODULE_EXTENSIONS.some((ext) => name.endsWith(ext));
}

async function folderEntry(dir: string): Promise<string | undefined> {
  for (const ext of MODULE_EXTENSIONS) {
    const candidate = join(dir, `index${ext}`);
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isFile()) return candidate;
  }
  return undefined;
}

/** Absolute paths of the plugin modules in `directory`, sorted by entry name. */
export async function listPluginModules(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = join(directory, entry.name);
    if (entry.isDirectory()) {
      const index = await folderEntry(full);
      if (index) out.push(index);
    } else if (entry.isFile() && isModuleFile(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

async function loadModule(path: string): Promise<ValidationOutcome> {
  let exported: unknown;
  try {
    const module = (await import(pathToFileURL(path).href)) as { default?: unknown };
    exported = module.default;
  } catch (error) {
    const message = errorMessage(error);
    return {
      diagnostic: { pluginId: `<${path}>`, source: path, enabled: false, errors: [{ category: 'module', message: `the module failed to load: ${message}` }], warnings: [], tools: [] },
    };
  }
  return validatePluginDefinition(exported, path);
}

export interface LoadPluginsOptions {
  directory: string;
  /** Tool names already published by the host; a plugin tool with one of these names disables its plugin. */
  reservedToolNames?: Iterable<string>;
}

export async function loadPlugins(options: LoadPluginsOptions): Promise<PluginCatalogue> {
  const modules = await listPluginModules(options.directory);
  const outcomes: ValidationOutcome[] = [];
  for (const path of modules) outcomes.push(await loadModule(path));
  return assembleCatalogue(outcomes, options.reservedToolNames);
}
