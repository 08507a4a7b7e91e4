/**
 * The console paging history as fast as it can, in a process of its own: one console socket to a
 * running Junction (`/control`, the console token), held open from start to end so the live call
 * events it receives cost the same whether it pages or not. SIGUSR1 starts paging (one request in
 * flight, the next sent on the answer, cycling through the console's shapes: newest page, older pages,
 * a filter, a search, a search that matches nothing); SIGUSR2 stops and prints one line,
 * `paged <n> <p50 ms> <p99 ms>`.
 *
 * usage: history-pager <base url> <console token> <rows in the trail>
 */
import WebSocket from 'ws';
import type { HistoryQuery } from '../../src-main/contracts/index.js';
import { percentile } from './stats.js';

const [base, token, rowsText] = process.argv.slice(2);
if (!base || !token || !rowsText) throw new Error('usage: history-pager BASE_URL TOKEN ROWS');
const rows = Number(rowsText);

const shapes: Array<(i: number) => HistoryQuery> = [
  () => ({ limit: 100 }),
  (i) => ({ limit: 100, before: 1 + ((i * 7919) % rows) }),
  (i) => ({ limit: 100, status: 'error', before: 1 + ((i * 104_729) % rows) }),
  () => ({ limit: 100, text: 'module-42' }),
  () => ({ limit: 100, text: 'no-such-word' }),
  (i) => ({ limit: 100, tool: `tool-${i % 40}`, status: 'ok' }),
];

const ws = new WebSocket(`${base.replace('http', 'ws')}/control?token=${encodeURIComponent(token)}`, { origin: base });
const pending = new Map<number, (ok: boolean) => void>();
ws.on('message', (data) => {
  const message = JSON.parse(data.toString()) as { id?: number | null; result?: { ok: boolean }; type?: string };
  if (message.type !== undefined || typeof message.id !== 'number') return;
  pending.get(message.id)?.(message.result?.ok === true);
  pending.delete(message.id);
});
await new Promise<void>((resolve, reject) => {
  ws.once('open', () => resolve());
  ws.once('error', reject);
});

let nextId = 1;
function ask(query: HistoryQuery): Promise<boolean> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    ws.send(JSON.stringify({ id, command: 'history', args: query }));
  });
}

let paging = false;
let samples: number[] = [];
let failed = 0;
/** The paging loop; a new one starts only after the last page of the one before is answered. */
let loop = Promise.resolve();
async function page(): Promise<void> {
  for (let i = 0; paging; i++) {
    const started = performance.now();
    if (!(await ask(shapes[i % shapes.length]!(i)))) failed++;
    samples.push(performance.now() - started);
  }
}
process.on('SIGUSR1', () => {
  if (paging) return;
  paging = true;
  samples = [];
  failed = 0;
  loop = loop.then(page);
});
process.on('SIGUSR2', () => {
  paging = false;
  const sorted = [...samples].sort((a, b) => a - b);
  process.stdout.write(`paged ${sorted.length} ${percentile(sorted, 50).toFixed(2)} ${percentile(sorted, 99).toFixed(2)} failed ${failed}\n`);
});
process.stdout.write('pager ready\n');
