/**
 * The worker thread that answers the console's reads of the audit trail (history pages, one call, the
 * ended transactions, exports) on connections of its own, so however long SQLite takes over a large
 * trail, the agents' event loop is not the one waiting. Requests arrive in order on a MessagePort and are
 * answered in order. Pages share one connection; an export holds one of its own for as long as it reads,
 * since it keeps a statement open between chunks.
 */
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { exportHeader, formatLine, matchingLines, openExport, trailLines, type ExportFormat, type Line } from './export.js';
import { endedTransactions, findCall, queryCalls } from './queries.js';
import type { ExportChunk, ExportSpec, ReaderInit, ReaderOps, ReaderReply, ReaderRequest } from './reader-protocol.js';
import { errorData } from './writer-protocol.js';

const { path, port } = workerData as ReaderInit;

let pages: Database.Database | undefined;

/** The connection for pages, opened on first use: never writes (`query_only`), never waits on a lock. */
function pagesDb(): Database.Database {
  if (!pages) {
    pages = new Database(path, { fileMustExist: true, timeout: 0 });
    pages.pragma('query_only = ON');
  }
  return pages;
}

interface Cursor {
  lines: Generator<Line>;
  format: ExportFormat;
  /** The export's own connection, when it reads the whole trail. */
  db: Database.Database | undefined;
  header: string;
  warnings: string[];
}

const cursors = new Map<number, Cursor>();
let nextCursor = 1;

function openCursor(spec: ExportSpec): number {
  const warnings: string[] = [];
  const window = { ...(spec.since !== undefined ? { since: spec.since } : {}), ...(spec.until !== undefined ? { until: spec.until } : {}) };
  let db: Database.Database | undefined;
  let lines: Generator<Line>;
  if (spec.filter) lines = matchingLines(pagesDb(), spec.filter, window);
  else {
    db = openExport(path);
    lines = trailLines(db, { path, ...window, warn: (message) => warnings.push(message) });
  }
  const id = nextCursor++;
  cursors.set(id, { lines, format: spec.format, db, header: exportHeader(spec.format), warnings });
  return id;
}

/** The cursor's next lines, up to about `maxBytes` of text; the cursor closes after its last. */
function more(id: number, maxBytes: number): ExportChunk {
  const cursor = cursors.get(id);
  if (!cursor) return { text: '', count: 0, done: true, warnings: [] };
  let text = cursor.header;
  cursor.header = '';
  let count = 0;
  let done = false;
  while (text.length < maxBytes) {
    const next = cursor.lines.next();
    if (next.done) {
      done = true;
      break;
    }
    text += formatLine(next.value, cursor.format);
    count++;
  }
  const warnings = cursor.warnings.splice(0);
  if (done) endCursor(id);
  return { text, count, done, warnings };
}

function endCursor(id: number): null {
  const cursor = cursors.get(id);
  if (!cursor) return null;
  cursors.delete(id);
  cursor.lines.return(undefined);
  cursor.db?.close();
  return null;
}

function close(): null {
  for (const id of [...cursors.keys()]) endCursor(id);
  pages?.close();
  pages = undefined;
  return null;
}

function handle(request: ReaderRequest): ReaderOps[ReaderRequest['op']]['value'] {
  switch (request.op) {
    case 'page':
      return queryCalls(pagesDb(), request.query);
    case 'call':
      return findCall(pagesDb(), request.callId);
    case 'transactions':
      return endedTransactions(pagesDb(), request.limit);
    case 'export':
      return openCursor(request.spec);
    case 'more':
      return more(request.cursor, request.maxBytes);
    case 'end':
      return endCursor(request.cursor);
    case 'close':
      return close();
  }
}

port.on('message', (request: ReaderRequest) => {
  let reply: ReaderReply;
  try {
    reply = { id: request.id, ok: true, value: handle(request) };
  } catch (error) {
    reply = { id: request.id, ok: false, error: errorData(error) };
  }
  port.postMessage(reply);
  if (request.op === 'close') port.close();
});
