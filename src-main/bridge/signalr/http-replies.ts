/**
 * The hub's answers on plain HTTP: negotiation's JSON, and refusals as the one structured error body
 * (`{ error: { code, message } }`, its status the error table's for the code) that every route sends.
 */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { StructuredError } from '../../contracts/index.js';
import { refuseUpgrade, sendError } from '../../shared/index.js';

/** What a refusal says; its HTTP status follows from its code. */
export type HttpRefusal = Pick<StructuredError, 'code' | 'message'>;

/** Negotiation's answers must never be served from a cache: each carries a one-use token. */
const NO_STORE = { 'cache-control': 'no-store' };

export function replyJson(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...NO_STORE });
  res.end(body);
}

/** The refusal's code and message only: a check's verdict carries more (its status, `ok`) than the body says. */
const errorOf = ({ code, message }: HttpRefusal): StructuredError => ({ code, message });

export function replyRefusal(res: ServerResponse, refusal: HttpRefusal): void {
  sendError(res, errorOf(refusal), NO_STORE);
}

/** Answers an upgrade request with the refusal instead of switching protocols, then ends the socket. */
export function refuseHubUpgrade(socket: Duplex, refusal: HttpRefusal): void {
  refuseUpgrade(socket, errorOf(refusal));
}
