/**
 * A TypeScript LanguageService whose host reads documents from a snapshot chosen by the caller.
 * Files outside the workspace (lib files, node_modules) come from disk. Retargeting to another
 * snapshot is cheap: the shared DocumentRegistry reuses every unchanged source file.
 */
import { join } from 'node:path';
import type ts from 'typescript';
import { typescript } from './typescript.js';
import { isSourcePath } from './loader.js';
import { isWithin } from './paths.js';
import type { Snapshot } from './snapshot.js';

export interface SnapshotLanguageService {
  /** Points the service at `snapshot` and returns it; valid until the next retarget. */
  at(snapshot: Snapshot): ts.LanguageService;
  dispose(): void;
}

/** One registry for every workspace and snapshot, created with the first language service. */
let sharedRegistry: ts.DocumentRegistry | undefined;

export function createSnapshotLanguageService(realRoot: string, options: ts.CompilerOptions): SnapshotLanguageService {
  const { sys, ScriptSnapshot, createDocumentRegistry, createLanguageService, getDefaultLibFilePath } = typescript();
  let target: Snapshot | undefined;
  const relativeOf = (fileName: string): string | undefined => {
    const normalised = fileName.replace(/\\/g, '/');
    if (!isWithin(realRoot, normalised) || normalised.includes('/node_modules/')) return undefined;
    return normalised.slice(realRoot.replace(/\\/g, '/').length + 1);
  };
  const current = (): Snapshot => {
    if (!target) throw new Error('language service used before a snapshot was chosen');
    return target;
  };
  const isRoot = (path: string): boolean => isSourcePath(path) && (options.allowJs === true || !/\.(c|m)?jsx?$/.test(path));
  const host: ts.LanguageServiceHost = {
    getProjectVersion: () => current().snapshotId,
    getCompilationSettings: () => options,
    getScriptFileNames: () => current().paths().filter(isRoot).map((p) => join(realRoot, p)),
    getScriptVersion: (fileName) => {
      const rel = relativeOf(fileName);
      return rel === undefined ? 'disk' : (current().get(rel)?.sha256 ?? 'missing');
    },
    getScriptSnapshot: (fileName) => {
      const rel = relativeOf(fileName);
      const text = rel === undefined ? sys.readFile(fileName) : current().get(rel)?.text;
      return text === undefined ? undefined : ScriptSnapshot.fromString(text);
    },
    fileExists: (fileName) => {
      const rel = relativeOf(fileName);
      return rel === undefined || !isSourcePath(rel) ? sys.fileExists(fileName) : current().has(rel);
    },
    readFile: (fileName) => {
      const rel = relativeOf(fileName);
      return rel === undefined || !isSourcePath(rel) ? sys.readFile(fileName) : current().get(rel)?.text;
    },
    readDirectory: sys.readDirectory,
    directoryExists: sys.directoryExists,
    getDirectories: sys.getDirectories,
    realpath: sys.realpath,
    getCurrentDirectory: () => realRoot,
    getDefaultLibFileName: (o) => getDefaultLibFilePath(o),
    useCaseSensitiveFileNames: () => sys.useCaseSensitiveFileNames,
  };
  const service = createLanguageService(host, (sharedRegistry ??= createDocumentRegistry()));
  return {
    at(snapshot) {
      target = snapshot;
      return service;
    },
    dispose: () => service.dispose(),
  };
}
