/**
 * Where an agent's tool call goes (pure). Editor by default; the runtime for tools only the runtime
 * publishes; the runtime for shared tools only when no editor is connected and none is awaited back.
 * While the editor that owns a tool is awaited, the call waits for it (the caller bounds the wait).
 */
import type { PluginRole } from '../../contracts/index.js';
import { preferenceOrder, publishes, type AwaitedPlugin, type PluginRecord } from './records.js';

export type RouteDecision =
  | { kind: 'target'; connectionId: string; role: PluginRole }
  /** `until` is infinite while a connected plugin's catalogue is still on its way; the caller's deadline bounds it. */
  | { kind: 'wait'; until: number; role: PluginRole }
  | { kind: 'notFound' };

export function routeTool(tool: string, active: readonly PluginRecord[], awaited: readonly AwaitedPlugin[], now: number): RouteDecision {
  const publishers = active.filter((r) => publishes(r, tool)).sort(preferenceOrder);
  const best = publishers[0];
  const awaitedOwners = awaited.filter((a) => a.until > now && a.toolNames.has(tool));
  const awaitedEditor = awaitedOwners.find((a) => a.role === 'editor');
  const editorLive = active.some((r) => r.role === 'editor');

  if (best?.role === 'editor') return { kind: 'target', connectionId: best.connectionId, role: 'editor' };
  // A just-connected editor may own the tool; a just-connected anything may, when nobody else publishes it.
  const pending = active.find((r) => !r.toolsKnown && (r.role === 'editor' || !best));
  if (pending) return { kind: 'wait', until: Number.POSITIVE_INFINITY, role: pending.role };
  if (best) {
    // The runtime serves a tool the editor does not own right now, or any tool once no editor is expected.
    if (editorLive || !awaitedEditor) return { kind: 'target', connectionId: best.connectionId, role: best.role };
    return { kind: 'wait', until: awaitedEditor.until, role: 'editor' };
  }
  const soonest = awaitedOwners.sort((a, b) => a.until - b.until)[0];
  return soonest ? { kind: 'wait', until: soonest.until, role: soonest.role } : { kind: 'notFound' };
}
