/**
 * Reads an MCP CallToolResult for display: structuredContent when present, else each content block as
 * what it is (JSON text parsed, plain text, images, embedded resources). Pure; unknown shapes fall back to raw.
 */
export type ResultPart =
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'image'; src: string; mimeType: string }
  | { kind: 'resource'; uri: string; text?: string; mimeType?: string };

export interface ReadableResult {
  isError: boolean;
  error?: { code: string; message: string };
  parts: ResultPart[];
}

const record = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseText(text: string): ResultPart {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { kind: 'json', value: JSON.parse(trimmed) };
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return { kind: 'text', text };
}

function contentPart(block: unknown): ResultPart {
  if (!record(block)) return { kind: 'json', value: block };
  if (block.type === 'text' && typeof block.text === 'string') return parseText(block.text);
  if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string' && typeof block.mimeType === 'string' && block.mimeType.startsWith('image/')) {
    return { kind: 'image', src: `data:${block.mimeType};base64,${block.data}`, mimeType: block.mimeType };
  }
  if (block.type === 'resource' && record(block.resource) && typeof block.resource.uri === 'string') {
    const r = block.resource;
    return { kind: 'resource', uri: String(r.uri), ...(typeof r.text === 'string' ? { text: r.text } : {}), ...(typeof r.mimeType === 'string' ? { mimeType: r.mimeType } : {}) };
  }
  return { kind: 'json', value: block };
}

export function readableResult(result: unknown): ReadableResult {
  if (typeof result === 'string') return { isError: false, parts: [{ kind: 'text', text: result }] };
  if (!record(result)) return { isError: false, parts: [{ kind: 'json', value: result }] };
  const isError = result.isError === true;
  const structured = result.structuredContent;
  let error: ReadableResult['error'];
  if (record(structured) && record(structured.error) && typeof structured.error.code === 'string') {
    error = { code: structured.error.code, message: typeof structured.error.message === 'string' ? structured.error.message : '' };
  }
  let parts: ResultPart[];
  if (structured !== undefined) parts = [{ kind: 'json', value: structured }];
  else if (Array.isArray(result.content)) parts = result.content.map(contentPart);
  else parts = [{ kind: 'json', value: result }];
  return { isError, ...(error ? { error } : {}), parts };
}
