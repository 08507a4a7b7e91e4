/** Durable reads and writes of manifests and their progress notes inside a state directory. */
import { open, readdir } from 'node:fs/promises';
import { readIfExists, removeDurably, removeIfPresent, removeTree, replaceDurably } from './durable-fs.js';
import type { FileProgress, JournalManifest } from './model.js';
import { decodeProgress, encodeManifest, encodeProgress } from './persisted/index.js';
import { MANIFEST_SUFFIX, MANIFEST_TEMP_SUFFIX, type StateLayout } from './state-dir/layout.js';

export async function writeManifest(layout: StateLayout, manifest: JournalManifest): Promise<void> {
  await replaceDurably(layout.manifestFile(manifest.manifestId), encodeManifest(manifest), layout.manifestTemp(manifest.manifestId));
}

export interface ProgressLog {
  append(progress: FileProgress): Promise<void>;
  close(): Promise<void>;
}

/** Progress notes are advisory (recovery decides from checksums), so they are appended without fsync. */
export async function openProgressLog(layout: StateLayout, manifestId: string): Promise<ProgressLog> {
  const handle = await open(layout.progressFile(manifestId), 'a');
  return {
    append: async (progress) => {
      await handle.write(encodeProgress(progress));
    },
    close: () => handle.close(),
  };
}

export async function readProgress(layout: StateLayout, manifestId: string, formatVersion: number): Promise<FileProgress[]> {
  const text = await readIfExists(layout.progressFile(manifestId));
  return text ? decodeProgress(formatVersion, text.toString('utf8')) : [];
}

/** Backups and progress go first and the manifest last, so evidence never outlives what it points to. */
export async function discardManifest(layout: StateLayout, manifestId: string): Promise<void> {
  await removeTree(layout.backupDir(manifestId));
  await removeIfPresent(layout.progressFile(manifestId));
  await removeDurably(layout.manifestFile(manifestId));
}

export interface ManifestListing {
  /** File names of manifests (`*.json`), sorted. */
  manifests: string[];
  /** Temp files of interrupted manifest writes: never evidence, since their rename never happened. */
  staleTemps: string[];
}

export async function listManifests(layout: StateLayout): Promise<ManifestListing> {
  const names = (await readdir(layout.manifestsDir)).sort();
  return {
    manifests: names.filter((n) => n.endsWith(MANIFEST_SUFFIX) && !n.startsWith('.')),
    staleTemps: names.filter((n) => n.startsWith('.') && n.endsWith(MANIFEST_TEMP_SUFFIX)),
  };
}
