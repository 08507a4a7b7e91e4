/** Builds the console bundle into a fresh directory so concurrent runs never share an output folder. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const CONFIG = fileURLToPath(new URL('../../../src-renderer/vite.config.ts', import.meta.url));

export async function buildRenderer(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'junction-renderer-'));
  await build({ configFile: CONFIG, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return outDir;
}
