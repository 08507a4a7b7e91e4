/**
 * A real Junction in a child process of its own (the test harness's settings), for measurements of
 * Junction's memory: in-process, the V8 heap and RSS also hold the test's agents, its plugin, the HTTP
 * client's connection pool and the test's per-call bookkeeping, whose growth would read as Junction's.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const CHILD = fileURLToPath(new URL('./junction-process-child.ts', import.meta.url));

export interface ProcessMemory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** The part of `heapUsed` in V8's code spaces (compiled functions and regular expressions). */
  codeUsed: number;
}

/** What the child sends: an answer to request `id`, or (id 0) that it is listening. */
export type ChildReply =
  | { id: number; memory: ProcessMemory }
  | { id: number; path: string }
  | { id: number; ready: { port: number; baseUrl: string } }
  | { id: number };

const Reply = z.object({
  id: z.number(),
  memory: z.object({ rss: z.number(), heapUsed: z.number(), external: z.number(), arrayBuffers: z.number(), codeUsed: z.number() }).optional(),
  path: z.string().optional(),
  ready: z.object({ port: z.number(), baseUrl: z.string() }).optional(),
});
type Reply = z.infer<typeof Reply>;

export interface JunctionProcess {
  port: number;
  baseUrl: string;
  pid: number;
  /** The child's memory right after a full collection there, so the heap figure is what Junction retains. */
  memory(): Promise<ProcessMemory>;
  /** Writes a heap snapshot of the child (after a full collection) and returns its path. */
  writeHeapSnapshot(path: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startJunctionProcess(args: string[] = []): Promise<JunctionProcess> {
  const child = fork(CHILD, [JSON.stringify(args)], { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let gone: Error | undefined;
  child.on('message', (raw: unknown) => {
    const reply = Reply.parse(raw);
    waiting.get(reply.id)?.resolve(reply);
    waiting.delete(reply.id);
  });
  child.once('exit', (code, signal) => {
    gone = new Error(`the Junction child process exited (code ${code}, signal ${signal})`);
    for (const { reject } of waiting.values()) reject(gone);
    waiting.clear();
  });
  /** Id 0 is the child's unasked announcement that it listens. */
  const awaitReply = (id: number): Promise<Reply> =>
    new Promise((resolve, reject) => {
      if (gone) return reject(gone);
      waiting.set(id, { resolve, reject });
    });
  const ask = (request: { op: string } & Record<string, unknown>): Promise<Reply> => {
    const id = nextId++;
    const reply = awaitReply(id);
    if (!gone) child.send({ ...request, id });
    return reply;
  };
  const { ready } = await awaitReply(0);
  if (!ready) throw new Error('the Junction child process did not say where it listens');
  return {
    ...ready,
    pid: child.pid ?? -1,
    async memory() {
      const { memory } = await ask({ op: 'memory' });
      if (!memory) throw new Error('the Junction child process answered a memory request without figures');
      return memory;
    },
    async writeHeapSnapshot(path: string) {
      return (await ask({ op: 'heap-snapshot', path })).path ?? path;
    },
    async stop() {
      if (gone) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await ask({ op: 'stop' }).catch(() => undefined);
      await exited;
    },
  };
}
