/** Floor 3's server: Junction's SignalR hub alone, with one `Echo` method. Prints `listening <port>`. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHubServer } from '../../../src-main/bridge/signalr/index.js';

const hub = createHubServer();
hub.on('Echo', (_connection, value) => value);
const server = createServer((req, res) => {
  if (!hub.handleRequest(req, res)) res.writeHead(404).end();
});
server.on('upgrade', (req, socket, head) => {
  if (!hub.handleUpgrade(req, socket, head)) socket.destroy();
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
