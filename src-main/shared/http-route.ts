/**
 * The shape every room's HTTP part has on the one server (hub, /mcp, /api, console, gates), and the one
 * way to answer a request with a structured error: its HTTP status is the error table's for its code's
 * kind, never chosen by the caller.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { httpStatusOf, type StructuredError } from '../contracts/index.js';

/** Claims the requests (and upgrades) it owns by returning true; the first route to claim one wins. */
export interface RouteHandler {
  handleRequest?(req: IncomingMessage, res: ServerResponse): boolean;
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
}

/** Answers `{ error }` with the status of the error's kind; a response already under way is left alone. */
export function sendError(res: ServerResponse, error: StructuredError, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ error });
  res.writeHead(httpStatusOf(error), { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Answers an upgrade request that nothing accepts with the error's status instead of switching protocols, then ends the socket. */
export function refuseUpgrade(socket: Duplex, error: StructuredError): void {
  if (socket.destroyed) return;
  const status = httpStatusOf(error);
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
