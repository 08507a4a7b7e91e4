/** A pending sampling request as the operator reads it: its messages by kind, its parameters in words. Pure. */
import type { PendingSamplingView } from '../store/types.js';

export type SamplingMessage =
  | { role: string; kind: 'text'; text: string }
  | { role: string; kind: 'image'; src: string }
  | { role: string; kind: 'json'; value: unknown };

const rec = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function part(role: string, content: unknown): SamplingMessage {
  if (rec(content) && content.type === 'text' && typeof content.text === 'string') return { role, kind: 'text', text: content.text };
  if (rec(content) && content.type === 'image' && typeof content.data === 'string' && typeof content.mimeType === 'string' && content.mimeType.startsWith('image/')) {
    return { role, kind: 'image', src: `data:${content.mimeType};base64,${content.data}` };
  }
  return { role, kind: 'json', value: content };
}

/** One entry per content block (MCP 2025-11-25 allows a list of blocks per message). */
export function samplingMessages(view: Pick<PendingSamplingView, 'messages'>): SamplingMessage[] {
  return view.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.map((c) => part(m.role, c)) : [part(m.role, m.content)]));
}

function preferences(p: Record<string, unknown>): string {
  const hints = Array.isArray(p.hints) ? p.hints.flatMap((h) => (rec(h) && typeof h.name === 'string' ? [h.name] : [])) : [];
  const priorities = ['costPriority', 'speedPriority', 'intelligencePriority'].flatMap((k) => (typeof p[k] === 'number' ? [`${k.replace('Priority', '')} ${String(p[k])}`] : []));
  return [hints.length ? `hints ${hints.join(', ')}` : '', ...priorities].filter(Boolean).join(' · ') || 'none';
}

/** The parameters the tool asked for, as name and text, in the order an operator weighs them. */
export function samplingParameters(view: PendingSamplingView): Array<[string, string]> {
  const out: Array<[string, string]> = [['max tokens', String(view.maxTokens)]];
  if (view.systemPrompt !== undefined) out.push(['system prompt', view.systemPrompt]);
  if (view.temperature !== undefined) out.push(['temperature', String(view.temperature)]);
  if (view.stopSequences?.length) out.push(['stop sequences', view.stopSequences.map((s) => JSON.stringify(s)).join(', ')]);
  if (view.modelPreferences) out.push(['model preferences', preferences(view.modelPreferences)]);
  if (view.includeContext !== undefined) out.push(['include context', view.includeContext]);
  return out;
}
