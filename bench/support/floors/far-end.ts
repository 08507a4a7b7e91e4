/** A floor's far end: answers each request the forward floor sends it (`<id>\n<body>`) with `answer(body)`. */
import { WebSocket } from 'ws';

export function serveForwarded(url: string, answer: (body: string) => string): void {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
  ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    const cut = text.indexOf('\n');
    ws.send(`${text.slice(0, cut)}\n${answer(text.slice(cut + 1))}`);
  });
  ws.on('open', () => console.log('connected'));
  ws.on('close', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}
