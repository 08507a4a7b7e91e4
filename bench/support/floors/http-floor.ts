/** Floor 1: plain Node `http` answering the JSON-RPC result itself. Prints `listening <port>`. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { echoResult, readBody } from './echo-result.js';

const server = createServer((req, res) => {
  void readBody(req).then((body) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(echoResult(body));
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
