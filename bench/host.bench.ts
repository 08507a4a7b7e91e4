/**
 * npm run bench:host — host costs on a generated 1,000-file workspace (~50 lines each), each as a
 * ratio to plain fs.writeFile of the same bytes measured in the same run:
 *   open (load + language service), stage-edits of 100 files, preview, commit (journal included),
 *   recovery of a commit interrupted half-way (a child process killed inside the journal),
 * plus one full type-check time in milliseconds.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createHost } from '../src-main/host/index.js';
import { createJournal } from '../src-main/recovery/index.js';
import type { CallContext } from '../src-main/contracts/index.js';

const FILES = 1000;
const EDITED = 100;
const SELF = fileURLToPath(import.meta.url);

function moduleText(i: number): string {
  const lines = [i > 0 ? `import { value${i - 1} } from './mod${i - 1}.js';` : `const value_1 = 0;`, ''];
  lines.push(`export interface Shape${i} {`, '  id: number;', '  name: string;', '  tags: string[];', '}', '');
  for (let f = 0; f < 8; f++) {
    lines.push(`export function fn${i}_${f}(shape: Shape${i}): string {`, `  return \`\${shape.name}:${f}:\${shape.tags.length + shape.id}\`;`, '}', '');
  }
  lines.push(`export const value${i}: number = ${i > 0 ? `value${i - 1}` : 'value_1'} + 1;`);
  return `${lines.join('\n')}\n`;
}

const edited = (text: string): string => `// reviewed\n${text}`;
const paths = Array.from({ length: FILES }, (_, i) => `src/mod${i}.ts`);
const editedPaths = paths.slice(0, EDITED);

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

async function plainWrite(root: string, files: ReadonlyArray<[string, string]>): Promise<number> {
  await rm(root, { recursive: true, force: true });
  await mkdir(join(root, 'src'), { recursive: true });
  return (await timed(() => Promise.all(files.map(([p, text]) => writeFile(join(root, p), text))))).ms;
}

async function crashChild(stateDir: string, root: string): Promise<void> {
  const journal = createJournal({
    stateDir,
    instanceId: 'bench-crash',
    hooks: { at: (point) => void (point === `after-file:${EDITED / 2}` && process.kill(process.pid, 'SIGKILL')) },
  });
  await journal.open();
  const changes = await Promise.all(
    editedPaths.map(async (path) => {
      const text = await readFile(join(root, path), 'utf8');
      const { sha256 } = await import('../src-main/recovery/index.js');
      return { kind: 'write' as const, path, content: edited(text), expectedBeforeSha256: sha256(Buffer.from(text)) };
    }),
  );
  await journal.commit({ transactionId: randomUUID(), workspaceRoot: root, changes });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'junction-host-bench-'));
  const root = join(dir, 'ws');
  const texts: Array<[string, string]> = paths.map((p, i) => [p, moduleText(i)]);
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [] }, include: ['src'] }));
  await Promise.all(texts.map(([p, t]) => writeFile(join(root, p), t)));
  const rows: Array<[string, number, number]> = [];
  try {
    const allBytes = await plainWrite(join(dir, 'plain-all'), texts);
    const journal = createJournal({ stateDir: join(dir, 'state'), instanceId: 'bench' });
    await journal.open();
    const host = createHost({ mode: 'autonomous-trusted', toolOutputSchema: 'publish', journal, watch: false });
    const ctx: CallContext = { callId: 'bench', agent: 'bench', transport: 'http-api', signal: new AbortController().signal };
    const callOk = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const outcome = await host.toolSource.callTool(name, args, ctx);
      if (outcome.result.isError) throw new Error(`${name}: ${JSON.stringify(outcome.result.structuredContent)}`);
      return outcome.result.structuredContent as Record<string, unknown>;
    };

    const open = await timed(() => host.openWorkspace(root, { trusted: true }));
    rows.push(['open 1,000 files', open.ms, allBytes]);
    const typeCheck = await timed(() => callOk('diagnostics', { limit: 2000 }));
    const diagnosticsFound = (typeCheck.value.items as unknown[]).length;

    const editedTexts: Array<[string, string]> = texts.slice(0, EDITED).map(([p, t]) => [p, edited(t)]);
    const hundredBytes = await plainWrite(join(dir, 'plain-100'), editedTexts);
    const status = await callOk('workspace-status', {});
    const started = await callOk('transaction-start', { expectedSnapshot: (status.items as Array<{ snapshot: unknown }>)[0]!.snapshot });
    const changes = editedPaths.map((path) => ({ kind: 'edit', path, edits: [{ range: { start: { offset: 0 }, end: { offset: 0 } }, newText: '// reviewed\n' }] }));
    const stage = await timed(() => callOk('stage-edits', { expectedSnapshot: started.snapshot, summary: 'bench', changes }));
    rows.push(['stage-edits of 100 files', stage.ms, hundredBytes]);
    const preview = await timed(() => callOk('transaction-preview', { limit: EDITED }));
    rows.push(['transaction-preview', preview.ms, hundredBytes]);
    const commit = await timed(() => callOk('transaction-commit', { expectedSnapshot: stage.value.snapshot }));
    rows.push(['transaction-commit (journal)', commit.ms, hundredBytes]);
    host.close();
    await journal.close();

    const crashState = join(dir, 'crash-state');
    const crashRoot = join(dir, 'crash-ws');
    await plainWrite(crashRoot, texts.slice(0, EDITED));
    const child = spawnSync(process.execPath, ['--import', 'tsx', SELF, '--crash-child', crashState, crashRoot], { stdio: 'inherit', cwd: join(dirname(SELF), '..') });
    if (child.signal !== 'SIGKILL') throw new Error(`the crash child was meant to be killed mid-commit (status ${child.status})`);
    const recovering = createJournal({ stateDir: crashState, instanceId: 'bench-recover' });
    const recovery = await timed(() => recovering.open());
    await recovering.close();
    const outcomes = recovery.value.entries.map((e) => e.outcome).join(',');
    rows.push([`recovery of an interrupted commit (${outcomes || 'nothing found'})`, recovery.ms, hundredBytes]);

    console.log(`host bench: ${FILES} files, ${EDITED} edited; each ratio is against fs.writeFile of the same bytes in this run`);
    for (const [name, ms, base] of rows) console.log(`  ${name.padEnd(48)} ${ms.toFixed(1).padStart(9)} ms   baseline ${base.toFixed(1).padStart(7)} ms   ratio ${(ms / base).toFixed(1)}x`);
    console.log(`  ${'full type-check (diagnostics, all files)'.padEnd(48)} ${typeCheck.ms.toFixed(1).padStart(9)} ms   (${diagnosticsFound} diagnostics)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const crashAt = process.argv.indexOf('--crash-child');
if (crashAt >= 0) await crashChild(process.argv[crashAt + 1]!, process.argv[crashAt + 2]!);
else await main();
