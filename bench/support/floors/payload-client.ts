/**
 * The large-payload floor's far end (behind forward-floor.ts): answers each forwarded tools/call as
 * the payload plugin would, the same bytes: `payload-result` with an image block of `bytes` base64
 * characters, `payload-argument` with the length of `data`. Argument: the ws URL.
 */
import { WebSocket } from 'ws';

const images = new Map<number, string>();
const imageOf = (bytes: number) => images.get(bytes) ?? images.set(bytes, 'A'.repeat(bytes)).get(bytes)!;

function answer(body: string): string {
  const request = JSON.parse(body) as { id?: unknown; params: { name: string; arguments: { bytes?: number; data?: string } } };
  const { name, arguments: args } = request.params;
  const result =
    name === 'payload-result'
      ? { content: [{ type: 'image', data: imageOf(args.bytes ?? 0), mimeType: 'image/png' }], isError: false }
      : { content: [{ type: 'text', text: JSON.stringify({ length: args.data?.length ?? 0 }) }], structuredContent: { length: args.data?.length ?? 0 }, isError: false };
  return JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, result });
}

const ws = new WebSocket(process.argv[2]!, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
ws.on('message', (data: Buffer) => {
  const text = data.toString('utf8');
  const cut = text.indexOf('\n');
  ws.send(`${text.slice(0, cut)}\n${answer(text.slice(cut + 1))}`);
});
ws.on('open', () => console.log('connected'));
ws.on('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
