/**
 * Floor 2: a minimal Node server that forwards each HTTP request body over one WebSocket to an echo
 * client in another process and answers with what comes back: the least a bridge must do. Prints
 * `listening <port>`, then `client connected` when the echo client is there.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { readBody } from './echo-result.js';

const waiting = new Map<number, ServerResponse>();
let client: WebSocket | undefined;
let nextId = 1;

const server = createServer((req, res) => {
  void readBody(req).then((body) => {
    if (!client) {
      res.writeHead(503).end();
      return;
    }
    const id = nextId++;
    waiting.set(id, res);
    client.send(`${id}\n${body}`);
  });
});
const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on('connection', (ws) => {
  client = ws;
  ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    const cut = text.indexOf('\n');
    const id = Number(text.slice(0, cut));
    const res = waiting.get(id);
    if (!res) return;
    waiting.delete(id);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(text.slice(cut + 1));
  });
  console.log('client connected');
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
