/**
 * The one tool catalogue agents see: the union of every ToolSource, earlier sources winning a name
 * collision (host tools are registered first, so a plugin can never shadow a host tool). Collisions are
 * kept as diagnostics for server-status and the console rather than failing anyone's connection.
 *
 * Listing and resolving for an agent session (a `scope`) apply the visibility rules: a tool hidden from
 * that session is neither listed nor resolved, so every route (sessions, /api, pinned routes, the
 * stateless revision) answers it exactly as a name nobody publishes. Without a scope (the operator's
 * console, status) the whole catalogue is seen.
 */
import type { AgentScope, ListingFacts, ToolVisibility, VisibilityJudge } from '../contracts/index.js';
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

/** Whether a change alters what the session in `scope` lists; absent when any session's list may have changed. */
export type CatalogueChangeScope = (scope: AgentScope) => boolean;

export interface Catalogue {
  /** With `scope`, what that agent session sees: its project only (sources serving several) and the tools visibility leaves it. */
  listTools(scope?: AgentScope): ToolDescriptor[];
  /** With `scope`, undefined for a tool hidden from that session, exactly as for a name nobody publishes. */
  resolve(name: string, scope?: AgentScope): CatalogueEntry | undefined;
  /** With `scope`, only collisions on names that session sees: a hidden tool is not named, even here. */
  collisions(scope?: AgentScope): CatalogueCollision[];
  sources(): readonly ToolSource[];
  onChanged(listener: (affects?: CatalogueChangeScope) => void): () => void;
  close(): void;
}

/** A session without a client name (none sent yet) matches agent rules as `unknown`, as the approval policy does. */
const UNNAMED_AGENT = 'unknown';

function factsOf(entry: CatalogueEntry, scope: AgentScope): ListingFacts {
  const { descriptor, source } = entry;
  return {
    tool: descriptor.name,
    annotations: descriptor.annotations,
    agentName: scope.agentName ?? UNNAMED_AGENT,
    // A getter: routing is asked only when a rule matches on where the tool would run.
    get target() {
      return source.targetOf?.(descriptor.name, scope) ?? { source: 'host' as const };
    },
  };
}

export function createCatalogue(sources: readonly ToolSource[], visibility?: ToolVisibility): Catalogue {
  const emitter = new TypedEmitter<{ changed: CatalogueChangeScope | undefined }>();
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

  const seen = (judge: VisibilityJudge | undefined, entry: CatalogueEntry, scope: AgentScope) => !judge?.hidesAny || judge.visible(factsOf(entry, scope));
  const listWith = (judge: VisibilityJudge | undefined, scope?: AgentScope) => {
    const entries = [...(scope ? merge(scope) : build()).entries.values()];
    return (scope ? entries.filter((entry) => seen(judge, entry, scope)) : entries).map((e) => e.descriptor);
  };
  const namesWith = (judge: VisibilityJudge, scope: AgentScope) => listWith(judge, scope).map((t) => t.name).join('\n');

  const unsubscribers = [
    ...sources.map((source) =>
      source.onToolsChanged(() => {
        cached = undefined;
        emitter.emit('changed', undefined);
      }),
    ),
    ...(visibility ? [visibility.onChanged((before, after) => emitter.emit('changed', (scope) => namesWith(before, scope) !== namesWith(after, scope)))] : []),
  ];

  const resolve = (name: string, scope?: AgentScope): CatalogueEntry | undefined => {
    const entry = build().entries.get(name);
    return entry && (!scope || seen(visibility?.current(), entry, scope)) ? entry : undefined;
  };

  return {
    listTools: (scope) => listWith(visibility?.current(), scope),
    resolve,
    collisions: (scope) => build().collisions.filter((c) => !scope || resolve(c.tool, scope) !== undefined),
    sources: () => sources,
    onChanged: (listener) => emitter.on('changed', listener),
    close: () => unsubscribers.forEach((u) => u()),
  };
}
