/**
 * `--import` this module to record the URL of every module the process loads (through the ES module
 * loader, which also sees each CommonJS package an ES module imports) in the file RECORD_LOADS_TO
 * names, one a line. It registers itself as the loader hooks; in the hooks' thread it is those hooks.
 */
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}

if (isMainThread) register(import.meta.url, { data: { file: process.env.RECORD_LOADS_TO } });
