/**
 * Builds the built-in catalogue for a mode exactly as agents see it (host tools and code actions through
 * the MCP room's catalogue) without opening anything: listTools never touches the journal.
 */
import { builtInToolSources } from '../../../src-main/host/mount/index.js';
import { createHost, type HostMode, type OutputSchemaPublication } from '../../../src-main/host/index.js';
import type { HostJournal } from '../../../src-main/host/index.js';
import { createCatalogue } from '../../../src-main/mcp/index.js';

export const unusedJournal: HostJournal = {
  commit: () => Promise.reject(new Error('catalogue tests never commit')),
  status: () => ({ stateDir: '', healthy: true, entries: [] }),
  blockedWorkspaces: () => [],
};

export function catalogue(mode: HostMode, toolOutputSchema: OutputSchemaPublication) {
  const host = createHost({ mode, toolOutputSchema, journal: unusedJournal, watch: false });
  const published = createCatalogue(builtInToolSources(host, { mode, toolOutputSchema }));
  const tools = published.listTools();
  published.close();
  host.close();
  return tools;
}

/** Object keys sorted recursively, arrays kept in order. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}
