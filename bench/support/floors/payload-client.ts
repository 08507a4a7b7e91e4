/**
 * The large-payload floor's far end (behind forward-floor.ts): answers each forwarded tools/call as
 * the payload plugin would, the same bytes: `payload-result` with an image block of `bytes` base64
 * characters, `payload-argument` with the length of `data`. Argument: the ws URL.
 */
import { base64Payload } from '../payload-data.js';
import { serveForwarded } from './far-end.js';


function answer(body: string): string {
  const request = JSON.parse(body) as { id?: unknown; params: { name: string; arguments: { bytes?: number; data?: string } } };
  const { name, arguments: args } = request.params;
  const result =
    name === 'payload-result'
      ? { content: [{ type: 'image', data: base64Payload(args.bytes ?? 0), mimeType: 'image/png' }], isError: false }
      : { content: [{ type: 'text', text: JSON.stringify({ length: args.data?.length ?? 0 }) }], structuredContent: { length: args.data?.length ?? 0 }, isError: false };
  return JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, result });
}

serveForwarded(process.argv[2]!, answer);
