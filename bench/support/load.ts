/**
 * Closed-loop load: `concurrency` lanes, each its own connection, each sending its next call when the
 * previous one answered, for a fixed time. Lanes are opened before the clock starts and closed after.
 */
import { Agent, request } from 'node:http';
import { percentile } from './stats.js';

/** One connection's way of making a call; resolves false when the answer was wrong. */
export interface Lane {
  call(): Promise<boolean>;
  close(): Promise<void> | void;
}

export interface LoadResult {
  concurrency: number;
  calls: number;
  errors: number;
  callsPerSecond: number;
  p50: number;
  p99: number;
  elapsedMs: number;
}

export interface LoadOptions {
  concurrency: number;
  durationMs: number;
  warmupMs: number;
  /** Told when the measured window opens and closes (after the warm-up), e.g. to read CPU time. */
  window?: { open(): void; close(): void };
}

export async function runLoad(openLane: () => Promise<Lane>, options: LoadOptions): Promise<LoadResult> {
  const { concurrency } = options;
  const lanes = await Promise.all(Array.from({ length: concurrency }, openLane));
  try {
    await drive(lanes, options.warmupMs, () => undefined);
    const samples: number[] = [];
    let errors = 0;
    options.window?.open();
    const started = performance.now();
    await drive(lanes, options.durationMs, (ms, ok) => {
      samples.push(ms);
      if (!ok) errors++;
    });
    const elapsedMs = performance.now() - started;
    options.window?.close();
    samples.sort((a, b) => a - b);
    return {
      concurrency,
      calls: samples.length,
      errors,
      callsPerSecond: samples.length / (elapsedMs / 1000),
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      elapsedMs,
    };
  } finally {
    await Promise.all(lanes.map((lane) => lane.close()));
  }
}

async function drive(lanes: readonly Lane[], durationMs: number, record: (ms: number, ok: boolean) => void): Promise<void> {
  const deadline = performance.now() + durationMs;
  await Promise.all(
    lanes.map(async (lane) => {
      while (performance.now() < deadline) {
        const start = performance.now();
        let ok: boolean;
        try {
          ok = await lane.call();
        } catch {
          ok = false;
        }
        record(performance.now() - start, ok);
      }
    }),
  );
}

/** A request body: text, bytes, or pieces of bytes written one after the other. */
export type RequestBody = string | Uint8Array | readonly Uint8Array[];

/**
 * Lanes of one HTTP connection each, posting `body` to `path`; the first failed call is told on stderr.
 * The body is encoded once, so a lane spends the same per call whatever its path.
 */
export function httpLane(base: URL, path: string, body: string | Uint8Array, ok: (reply: HttpReply) => boolean): () => Promise<Lane> {
  let told = false;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return async () => {
    const connection = new HttpConnection(base);
    return {
      call: async () => {
        const reply = await connection.post(path, bytes);
        if (ok(reply)) return true;
        if (!told) process.stderr.write(`  first failed call to ${path}: HTTP ${reply.status} ${reply.raw.subarray(0, 300).toString()}\n`);
        told = true;
        return false;
      },
      close: () => connection.close(),
    };
  };
}

/**
 * An answer as received. `raw` is the body's bytes; `body` decodes them on first use, so a check that
 * needs only the status or a search of the bytes (`raw.includes`) does not pay for a string of megabytes.
 */
export class HttpReply {
  private text: string | undefined;

  constructor(
    readonly status: number,
    readonly headers: Record<string, string | string[] | undefined>,
    readonly raw: Buffer,
  ) {}

  get body(): string {
    return (this.text ??= this.raw.toString('utf8'));
  }
}

/** An HTTP/1.1 client bound to one kept-alive socket: one lane is one TCP connection. */
export class HttpConnection {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly base: URL) {}

  post(path: string, body: RequestBody, headers: Record<string, string> = {}): Promise<HttpReply> {
    return this.send('POST', path, body, headers);
  }

  get(path: string, headers: Record<string, string> = {}): Promise<HttpReply> {
    return this.send('GET', path, undefined, headers);
  }

  delete(path: string, headers: Record<string, string> = {}): Promise<HttpReply> {
    return this.send('DELETE', path, undefined, headers);
  }

  close(): void {
    this.agent.destroy();
  }

  private send(method: string, path: string, body: RequestBody | undefined, headers: Record<string, string>): Promise<HttpReply> {
    const pieces = body === undefined ? [] : typeof body === 'string' ? [Buffer.from(body)] : body instanceof Uint8Array ? [body] : body;
    const length = pieces.reduce((n, piece) => n + piece.length, 0);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.base.hostname,
          port: this.base.port,
          path,
          method,
          agent: this.agent,
          headers: body === undefined ? headers : { 'content-type': 'application/json', 'content-length': length, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(new HttpReply(res.statusCode ?? 0, res.headers, Buffer.concat(chunks))));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      for (const piece of pieces) req.write(piece);
      req.end();
    });
  }
}
