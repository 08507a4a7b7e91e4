/** Bundles the Electron e2e entry (ESM main) and the preload (CommonJS) so the Electron binary can run them. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ENTRY = fileURLToPath(new URL('./electron-entry.ts', import.meta.url));
const PRELOAD = fileURLToPath(new URL('../../../src-main/electron/preload.cts', import.meta.url));

export async function buildElectronEntry(): Promise<{ main: string; preload: string }> {
  const outDir = await mkdtemp(join(tmpdir(), 'junction-electron-'));
  const common = { configFile: false as const, logLevel: 'warn' as const };
  await build({ ...common, build: { ssr: ENTRY, outDir, emptyOutDir: false, rollupOptions: { external: ['electron'], output: { format: 'es', entryFileNames: 'main.mjs' } } } });
  await build({ ...common, build: { ssr: PRELOAD, outDir, emptyOutDir: false, rollupOptions: { external: ['electron'], output: { format: 'cjs', entryFileNames: 'preload.cjs' } } } });
  return { main: join(outDir, 'main.mjs'), preload: join(outDir, 'preload.cjs') };
}
