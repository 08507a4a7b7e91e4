/**
 * The console's views, declared once: the navigation, the command palette, access keys, the address
 * (`#id`) and the tests all read this list, and views/components.ts must give each id its component (it
 * does not compile otherwise). Adding a view is one entry here, one line there and its component file.
 *
 * The list holds no components, so everything that navigates (store/ui.ts, and through it every view)
 * can depend on it without a cycle, and Node (the tests) can read it without evaluating any view.
 */
export interface ViewDefinition<Id extends string = string> {
  id: Id;
  /** The tab's and the palette's label. */
  label: string;
  /** The view's own level-2 heading. */
  heading: string;
  /** What the view is for, in the palette. */
  hint: string;
}

function view<Id extends string>(id: Id, label: string, heading: string, hint: string): ViewDefinition<Id> {
  return { id, label, heading, hint };
}

export const VIEWS = [
  view('plugins', 'Plugins', 'Plugins', 'connected applications, their tools and connection history'),
  view('agents', 'Agents', 'Agents', 'connected MCP sessions and HTTP callers'),
  view('calls', 'Live calls', 'Live calls', 'every tool call, live and recorded'),
  view('run', 'Run a tool', 'Run a tool', 'call any tool as the console'),
  view('transactions', 'Transactions', 'Transactions', 'staged revisions, diffs and ended transactions'),
  view('approvals', 'Approvals', 'Approvals', 'held calls and commits waiting for you'),
  view('recovery', 'Recovery', 'Recovery', 'the commit journal and what recovery did'),
  view('bridge', 'Bridge', 'Bridge', 'endpoints and client configuration'),
  view('policy', 'Policy', 'Approval policy', 'rules, grants and decisions'),
  view('visibility', 'Visibility', 'What agents see', 'which tools agents see, per tool and per agent'),
  view('settings', 'Settings', 'Settings', 'the effective configuration'),
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

export const VIEW_IDS: readonly ViewId[] = VIEWS.map((v) => v.id);

export function isViewId(text: string): text is ViewId {
  return (VIEW_IDS as readonly string[]).includes(text);
}

export function viewById(id: ViewId): ViewDefinition<ViewId> {
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0];
}

/** Alt+1 … Alt+9 then Alt+0 reach the first ten views in order; later ones have none. */
export function accessKeyOf(index: number): string | undefined {
  if (index < 9) return String(index + 1);
  return index === 9 ? '0' : undefined;
}
