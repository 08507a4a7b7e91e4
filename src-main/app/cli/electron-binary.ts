/**
 * Finds the Electron binary without requiring the `electron` package: its main export tries to
 * download the binary on the spot when it is missing, which on a closed network only hangs and fails.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type ElectronLookup = { found: true; path: string } | { found: false; reason: string };

export function findElectronBinary(env: NodeJS.ProcessEnv = process.env): ElectronLookup {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { found: false, reason: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return { found: false, reason: 'the Electron binary was never downloaded (its installer needs the internet)' };
  }
  const relative = readFileSync(pathFile, 'utf8').trim();
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative) : join(packageDir, 'dist', relative);
  if (!existsSync(binary)) return { found: false, reason: `the Electron binary is missing at ${binary}` };
  return { found: true, path: binary };
}
