/** Floor 2's far end: answers each forwarded request with the echo result. Argument: the ws URL. */
import { WebSocket } from 'ws';
import { echoResult } from './echo-result.js';

const ws = new WebSocket(process.argv[2]!, { perMessageDeflate: false });
ws.on('message', (data: Buffer) => {
  const text = data.toString('utf8');
  const cut = text.indexOf('\n');
  ws.send(`${text.slice(0, cut)}\n${echoResult(text.slice(cut + 1))}`);
});
ws.on('open', () => console.log('connected'));
ws.on('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
