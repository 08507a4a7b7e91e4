/**
 * The worker thread that owns the audit database's writing connection, so redaction, SQLite and the
 * full-text index cost the agent's event loop nothing but a message. Requests arrive in order on a
 * MessagePort and are answered in order; after each answer a shared counter is bumped and notified, so
 * the store can also wait for an answer synchronously (a flush before a history query, close).
 */
import { workerData } from 'node:worker_threads';
import { AuditWriter } from './writer.js';
import { errorData, type WriterInit, type WriterMessage, type WriterReply, type WriterRequest } from './writer-protocol.js';

const { options, port, signal } = workerData as WriterInit;

/** Posts a message and wakes a store that waits for one synchronously. */
function send(message: WriterMessage): void {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

// Told before the upgrade's transaction runs, so the store stops waiting for this thread and says why, then as it goes.
const writer = new AuditWriter(options, {
  starting: (upgrade) => send({ notice: 'upgrading', upgrade }),
  progress: (done) => send({ notice: 'progress', done }),
});

/** The shared memory the store writes each batch's calls into (see `shared-rows.ts`). */
let rows: SharedArrayBuffer | undefined;

function handle(request: WriterRequest): WriterReply {
  try {
    switch (request.op) {
      case 'open': {
        const migrated = writer.open(request.now);
        return { id: request.id, ok: true, open: writer.isOpen, ...(migrated ? { migrated } : {}) };
      }
      case 'write': {
        rows = request.memory ?? rows;
        const calls = rows && request.batch.calls > 0 ? Buffer.from(rows, 0, request.batch.calls) : Buffer.alloc(0);
        const { migrated, pruneError } = writer.write({ ...request.batch, calls }, request.now);
        return { id: request.id, ok: true, open: writer.isOpen, ...(migrated ? { migrated } : {}), ...(pruneError !== undefined ? { pruneError: errorData(pruneError) } : {}) };
      }
      case 'index': {
        const migrated = writer.indexRest(request.now);
        return { id: request.id, ok: true, open: writer.isOpen, ...(migrated ? { migrated } : {}) };
      }
      case 'prune':
        // A thread started for this request opens the database, which prunes it.
        if (writer.isOpen) writer.prune(request.now);
        else writer.open(request.now);
        return { id: request.id, ok: true, open: writer.isOpen };
      case 'close':
        writer.close();
        return { id: request.id, ok: true, open: false };
    }
  } catch (error) {
    return { id: request.id, ok: false, open: writer.isOpen, error: errorData(error) };
  }
}

port.on('message', (request: WriterRequest) => {
  send(handle(request));
  if (request.op === 'close') port.close();
});
