/**
 * The JSON error bodies the hub answers on plain HTTP and on refused upgrades. Every refusal carries
 * a stable code: `{ error: { code, message } }`.
 */
import type { ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../../contracts/index.js';

export interface HttpRefusal {
  status: number;
  code: ErrorCode;
  message: string;
}

export function refusalBody(refusal: HttpRefusal): string {
  return JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
}

export function replyJson(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

export function replyRefusal(res: ServerResponse, refusal: HttpRefusal): void {
  replyJson(res, refusal.status, refusalBody(refusal));
}

/** Answers an upgrade request with a plain HTTP error instead of switching protocols, then ends the socket. */
export function refuseUpgrade(socket: Duplex, refusal: HttpRefusal): void {
  if (socket.destroyed) return;
  const body = refusalBody(refusal);
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      '\r\n' +
      body,
  );
}
