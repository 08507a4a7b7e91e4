/**
 * The store's side of the writer thread: starts the worker, numbers requests, delivers replies in order
 * (as messages while the event loop runs, or pulled synchronously while the store waits for one).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { WriterInit, WriterMessage, WriterNotice, WriterReply, WriterRequest } from './writer-protocol.js';
import type { AuditWriterOptions } from './writer.js';

type Request = WriterRequest extends infer R ? (R extends WriterRequest ? Omit<R, 'id'> : never) : never;

const FROM_SOURCE = import.meta.url.endsWith('.ts');
/** The worker's module beside this one: TypeScript when running from source (tests, benches), JavaScript when built. */
const WORKER_URL = new URL(`./writer-worker.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);

/** The ESM flavour of tsx's register API, from its package's export map (require() would resolve the CommonJS one). */
function tsxEsmApi(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(manifestPath), manifest.exports['./esm/api']!.import.default)).href;
}

/**
 * The writer's young generation, in MB (V8 splits it into two semi-spaces and room for large
 * objects). Left to itself the thread's isolate grows it to 8 MB resident under a stream of batches,
 * although a batch's objects die within that batch: 6 MB (2 MB semi-spaces) holds a 500-record
 * batch's garbage between scavenges.
 */
const WRITER_YOUNG_GENERATION_MB = 6;

/** A worker does not inherit tsx's loader hooks from `--import tsx`; from source, it registers them before loading its module. */
function startWorker(init: WriterInit, transferList: MessagePort[]): Worker {
  const options = { workerData: init, transferList, resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB } };
  if (!FROM_SOURCE) return new Worker(WORKER_URL, options);
  const bootstrap = `import(${JSON.stringify(tsxEsmApi())}).then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

export class WriterThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  private delivered = 0;
  private crashed: Error | undefined;

  constructor(
    options: AuditWriterOptions,
    private readonly onReply: (reply: WriterReply) => void,
    onCrash: (error: Error) => void,
    private readonly onNotice: (notice: WriterNotice) => void = () => {},
  ) {
    const { port1, port2 } = new MessageChannel();
    const init: WriterInit = { options, port: port2, signal: this.signal };
    this.worker = startWorker(init, [port2]);
    this.port = port1;
    port1.on('message', (message: WriterMessage) => this.deliver(message));
    // Neither keeps the process alive: the store flushes synchronously before it closes.
    port1.unref();
    this.worker.unref();
    this.worker.on('error', (error) => {
      this.crashed = error;
      onCrash(error);
    });
  }

  get alive(): boolean {
    return this.crashed === undefined;
  }

  send(request: Request): number {
    const id = this.nextId++;
    this.port.postMessage({ ...request, id } as WriterRequest);
    return id;
  }

  /**
   * Blocks until the reply to `id` (and every earlier one) has been delivered; false when none came in
   * time, or when `stop` turned true after a message was delivered (a notice that the wait would be long).
   */
  waitFor(id: number, timeoutMs: number, stop: () => boolean = () => false): boolean {
    const deadline = Date.now() + timeoutMs;
    while (this.delivered < id && this.alive) {
      const seen = Atomics.load(this.signal, 0);
      const pulled = receiveMessageOnPort(this.port);
      if (pulled) {
        this.deliver(pulled.message as WriterMessage);
        if (stop()) break;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) return false;
      Atomics.wait(this.signal, 0, seen, Math.min(left, 1000));
    }
    return this.delivered >= id;
  }

  /** Whether the worker keeps the process alive (while it runs something that must not be cut short). */
  hold(on: boolean): void {
    if (on) this.worker.ref();
    else this.worker.unref();
  }

  terminate(): void {
    this.port.close();
    void this.worker.terminate();
  }

  private deliver(message: WriterMessage): void {
    if ('notice' in message) {
      this.onNotice(message);
      return;
    }
    this.delivered = message.id;
    this.onReply(message);
  }
}
