/**
 * The TypeScript compiler and language service, loaded on first use instead of at start: the module
 * alone takes about 45 MB resident, which a Junction that only bridges plugins, or whose workspaces are
 * only read, staged and committed, never needs. The first use is a workspace's compiler options or
 * language service (diagnostics, symbols, references, code actions, compiler validation): that call
 * pays the load once (a few hundred milliseconds). Every other module imports `typescript` for its
 * types only and reaches the runtime through here.
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
