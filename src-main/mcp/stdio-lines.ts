/**
 * MCP over stdio, one JSON-RPC message per line, that answers every line it cannot use. The SDK's
 * stdio transport reports an unparsable line or a batch to its own error hook and sends nothing, so an
 * agent waits forever; here the agent gets a JSON-RPC error it can read.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A line longer than this (in characters) is refused and skipped to its end rather than buffered without bound. */
const DEFAULT_MAX_LINE_LENGTH = 16 * 1024 * 1024;

export interface StdioLineOptions {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  maxLineLength?: number;
}

type Refusal = { code: -32700 | -32600; message: string; id: string | number | null };

/** What one line holds: a message to deliver, nothing (blank), or the error to answer it with. */
function readLine(line: string): JSONRPCMessage | Refusal | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { code: -32700, message: 'Parse error: the line is not valid JSON; send one JSON-RPC message per line.', id: null };
  }
  if (Array.isArray(value)) {
    return { code: -32600, message: 'Invalid Request: JSON-RPC batches are not accepted on stdio (MCP 2025-06-18 removed batching); send one message per line.', id: null };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const id = (value as { id?: unknown } | null)?.id;
  return { code: -32600, message: 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message.', id: typeof id === 'string' || typeof id === 'number' ? id : null };
}

const isRefusal = (value: JSONRPCMessage | Refusal): value is Refusal => typeof (value as Refusal).code === 'number' && !('jsonrpc' in value);

export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private readonly stdin: NodeJS.ReadableStream;
  private readonly stdout: NodeJS.WritableStream;
  private readonly maxLineLength: number;
  /** Keeps a UTF-8 sequence split across chunks whole. */
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  /** Set while the rest of an over-long line is being skipped. */
  private skipping = false;
  private closed = false;

  constructor(options: StdioLineOptions = {}) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  }

  private readonly onData = (chunk: Buffer | string) => {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let newline: number;
    while ((newline = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, newline).replace(/\r$/, '');
      this.pending = this.pending.slice(newline + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      this.deliver(line);
    }
    if (this.pending.length > this.maxLineLength) {
      this.pending = '';
      if (!this.skipping) this.refuse({ code: -32600, message: `Invalid Request: a line longer than ${this.maxLineLength} characters was refused.`, id: null });
      this.skipping = true;
    }
  };

  private readonly onEnd = () => void this.close();
  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private deliver(line: string): void {
    const read = readLine(line);
    if (read === undefined) return;
    if (isRefusal(read)) this.refuse(read);
    else this.onmessage?.(read);
  }

  /** JSON-RPC answers an unidentifiable request with id null, which the SDK's message type cannot express. */
  private refuse(refusal: Refusal): void {
    this.write({ jsonrpc: '2.0', id: refusal.id, error: { code: refusal.code, message: refusal.message } }).catch(() => undefined);
  }

  private write(value: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(value)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.once('end', this.onEnd);
    this.stdin.once('close', this.onEnd);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.stdin.pause();
    this.onclose?.();
  }
}
