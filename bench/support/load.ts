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

/** Lanes of one HTTP connection each, posting `body` to `path`; the first failed call is told on stderr. */
export function httpLane(base: URL, path: string, body: string, ok: (status: number, body: string) => boolean): () => Promise<Lane> {
  let told = false;
  return async () => {
    const connection = new HttpConnection(base);
    return {
      call: async () => {
        const reply = await connection.post(path, body);
        if (ok(reply.status, reply.body)) return true;
        if (!told) process.stderr.write(`  first failed call to ${path}: HTTP ${reply.status} ${reply.body.slice(0, 300)}\n`);
        told = true;
        return false;
      },
      close: () => connection.close(),
    };
  };
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTP/1.1 client bound to one kept-alive socket: one lane is one TCP connection. */
export class HttpConnection {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly base: URL) {}

  post(path: string, body: string, headers: Record<string, string> = {}): Promise<HttpReply> {
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

  private send(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<HttpReply> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.base.hostname,
          port: this.base.port,
          path,
          method,
          agent: this.agent,
          headers: body === undefined ? headers : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}
