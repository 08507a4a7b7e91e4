/**
 * Starting one of the trail's worker threads (the writer, the reader) from the module beside this one:
 * TypeScript when running from source (tests, benches), JavaScript when built. A worker does not inherit
 * tsx's loader hooks from `--import tsx`, so from source it registers them before loading its module.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The ESM flavour of tsx's register API, from its package's export map (require() would resolve the CommonJS one). */
function tsxEsmApi(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(manifestPath), manifest.exports['./esm/api']!.import.default)).href;
}

/** Starts the worker whose module is `name` (without extension) in this folder. */
export function startAuditWorker(name: 'writer-worker' | 'reader-worker', options: WorkerOptions): Worker {
  const url = new URL(`./${name}.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);
  if (!FROM_SOURCE) return new Worker(url, options);
  const bootstrap = `import(${JSON.stringify(tsxEsmApi())}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
