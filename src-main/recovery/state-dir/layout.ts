import { join } from 'node:path';

/**
 * Where format-1 evidence lives inside a state directory. Manifests of every format share `manifests/`
 * so that an older host sees a newer host's manifest (and refuses it) instead of overlooking it.
 */
export interface StateLayout {
  root: string;
  lockFile: string;
  ownerFile: string;
  manifestsDir: string;
  backupsDir: string;
  manifestFile(manifestId: string): string;
  manifestTemp(manifestId: string): string;
  progressFile(manifestId: string): string;
  backupDir(manifestId: string): string;
  /** State-directory-relative POSIX path, as recorded in the manifest. */
  backupRelative(manifestId: string, fileIndex: number): string;
  resolve(relative: string): string;
}

export const MANIFEST_SUFFIX = '.json';
export const MANIFEST_TEMP_SUFFIX = '.json.tmp';

export function stateLayout(root: string): StateLayout {
  const manifestsDir = join(root, 'manifests');
  const backupsDir = join(root, 'backups');
  return {
    root,
    lockFile: join(root, 'owner.lock'),
    ownerFile: join(root, 'owner.json'),
    manifestsDir,
    backupsDir,
    manifestFile: (id) => join(manifestsDir, `${id}${MANIFEST_SUFFIX}`),
    manifestTemp: (id) => join(manifestsDir, `.${id}${MANIFEST_TEMP_SUFFIX}`),
    progressFile: (id) => join(manifestsDir, `${id}.progress`),
    backupDir: (id) => join(backupsDir, id),
    backupRelative: (id, index) => `backups/${id}/${index}`,
    resolve: (relative) => join(root, ...relative.split('/')),
  };
}
