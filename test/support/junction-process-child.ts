/**
 * The child side of `startJunctionProcess`: a test Junction alone in its own process, so a memory
 * measurement sees Junction and not the agents, plugin and bookkeeping of the test that drives it.
 * Answers the parent's requests over the IPC channel: its memory after a full collection, a heap
 * snapshot (for finding what grows), and stop.
 */
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { z } from 'zod';
import { collectGarbage } from '../reliability/scenarios/rss.js';
import { startTestJunction } from './junction-harness.js';
import type { ChildReply } from './junction-process.js';

const Request = z.discriminatedUnion('op', [
  z.object({ op: z.literal('memory'), id: z.number() }),
  z.object({ op: z.literal('heap-snapshot'), id: z.number(), path: z.string().min(1) }),
  z.object({ op: z.literal('stop'), id: z.number() }),
]);

const send = (reply: ChildReply) => process.send?.(reply);

/** Bytes of V8's code spaces: compiled functions and regular expressions, which grow as new paths run and are flushed by V8, not retained data. */
function codeSpaceUsed(): number {
  return getHeapSpaceStatistics()
    .filter((space) => space.space_name.startsWith('code_'))
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

/** Weak callbacks run after the first pass, so a second one leaves only what is retained. */
function fullCollection(): void {
  collectGarbage();
  collectGarbage();
}

const args = z.array(z.string()).parse(JSON.parse(process.argv[2] ?? '[]'));
const junction = await startTestJunction(args);

process.on('message', (raw: unknown) => {
  const request = Request.parse(raw);
  switch (request.op) {
    case 'memory': {
      fullCollection();
      const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
      send({ id: request.id, memory: { rss, heapUsed, external, arrayBuffers, codeUsed: codeSpaceUsed() } });
      return;
    }
    case 'heap-snapshot':
      fullCollection();
      send({ id: request.id, path: writeHeapSnapshot(request.path) });
      return;
    case 'stop':
      void junction.stop().finally(() => {
        send({ id: request.id });
        process.disconnect();
      });
  }
});
send({ id: 0, ready: { port: junction.port, baseUrl: junction.baseUrl } });
