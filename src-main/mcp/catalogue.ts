/**
 * The one tool catalogue agents see: the union of every ToolSource, earlier sources winning a name
 * collision (host tools are registered first, so a plugin can never shadow a host tool). Collisions are
 * kept as diagnostics for server-status and the console rather than failing anyone's connection.
 */
import type { AgentScope } from '../contracts/index.js';
import { TypedEmitter } from '../shared/index.js';
import { publishedDescriptor, type ToolDescriptor, type ToolSource } from '../contracts/index.js';

export interface CatalogueCollision {
  tool: string;
  keptFrom: string;
  shadowedFrom: string;
}

export interface CatalogueEntry {
  descriptor: ToolDescriptor;
  source: ToolSource;
}

export interface Catalogue {
  /** With `scope`, what that agent session sees (sources serving several projects show its project only). */
  listTools(scope?: AgentScope): ToolDescriptor[];
  resolve(name: string): CatalogueEntry | undefined;
  collisions(): CatalogueCollision[];
  sources(): readonly ToolSource[];
  onChanged(listener: () => void): () => void;
  close(): void;
}

export function createCatalogue(sources: readonly ToolSource[]): Catalogue {
  const emitter = new TypedEmitter<{ changed: undefined }>();
  let cached: { entries: Map<string, CatalogueEntry>; collisions: CatalogueCollision[] } | undefined;

  const merge = (scope?: AgentScope) => {
    const entries = new Map<string, CatalogueEntry>();
    const collisions: CatalogueCollision[] = [];
    for (const source of sources) {
      for (const descriptor of source.listTools(scope)) {
        const existing = entries.get(descriptor.name);
        if (existing) {
          collisions.push({ tool: descriptor.name, keptFrom: existing.source.id, shadowedFrom: source.id });
          continue;
        }
        entries.set(descriptor.name, { descriptor: publishedDescriptor(descriptor), source });
      }
    }
    return { entries, collisions };
  };
  // The unscoped union is what names resolve against; a scoped list is built per tools/list (rare).
  const build = () => (cached ??= merge());

  const unsubscribers = sources.map((source) =>
    source.onToolsChanged(() => {
      cached = undefined;
      emitter.emit('changed', undefined);
    }),
  );

  return {
    listTools: (scope) => [...(scope ? merge(scope) : build()).entries.values()].map((e) => e.descriptor),
    resolve: (name) => build().entries.get(name),
    collisions: () => [...build().collisions],
    sources: () => sources,
    onChanged: (listener) => emitter.on('changed', listener),
    close: () => unsubscribers.forEach((u) => u()),
  };
}
