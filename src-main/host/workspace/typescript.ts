/**
 * The TypeScript compiler and language service, loaded on first use instead of at start: they take
 * about 75 MB resident, which a Junction that only bridges plugins (no workspace open) never needs.
 * `Workspace.open` asks first, so the load happens while a workspace opens, never inside a tool call.
 * Every other module imports `typescript` for its types only and reaches the runtime through here.
 */
import { createRequire } from 'node:module';
import type TypeScript from 'typescript';

let loaded: typeof TypeScript | undefined;

export function typescript(): typeof TypeScript {
  // Synchronous on purpose: the package is CommonJS, so a dynamic import would block just as long, and
  // the language-service host callbacks that reach here cannot await.
  loaded ??= createRequire(import.meta.url)('typescript') as typeof TypeScript;
  return loaded;
}
