/** Client setup snippets grouped by client for the Bridge view: `Claude Code: .mcp.json (stdio)` is Claude Code's. Pure. */
import type { ClientSnippetView } from '../store/types.js';

export interface SnippetGroup {
  client: string;
  snippets: Array<ClientSnippetView & { form: string }>;
}

/** The client's name: a label's part before `:` or before its parenthesised variant. */
export function clientOf(label: string): { client: string; form: string } {
  const colon = label.indexOf(':');
  if (colon > 0) return { client: label.slice(0, colon).trim(), form: label.slice(colon + 1).trim() };
  const paren = /^(.*?)\s*(\(.*\))$/.exec(label);
  return paren ? { client: paren[1] ?? label, form: paren[2] ?? '' } : { client: label, form: '' };
}

export function groupSnippets(snippets: readonly ClientSnippetView[]): SnippetGroup[] {
  const groups = new Map<string, SnippetGroup>();
  for (const s of snippets) {
    const { client, form } = clientOf(s.client);
    let group = groups.get(client);
    if (!group) groups.set(client, (group = { client, snippets: [] }));
    // The transport in parentheses is said again by snippetFacts.
    group.snippets.push({ ...s, form: form.replace(/\s*\((stdio|streamable HTTP|direct HTTP)\)$/, '').trim() });
  }
  return [...groups.values()];
}

const TRANSPORT: Record<NonNullable<ClientSnippetView['transport']>, string> = { stdio: 'stdio', 'streamable-http': 'streamable HTTP', 'http-api': 'HTTP tool API' };

/** `stdio · goes in claude_desktop_config.json` */
export function snippetFacts(s: ClientSnippetView): string {
  return [s.transport ? TRANSPORT[s.transport] : '', s.target ? (s.target === 'a terminal' ? 'run in a terminal' : `goes in ${s.target}`) : '', s.format].filter(Boolean).join(' · ');
}
