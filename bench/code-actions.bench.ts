/**
 * npm run bench:code-actions — latency (p50/p99) of list-code-actions on a warm generated 500-file
 * project (calls cycle through a working set of files), against a direct LanguageService.getCodeFixesAtPosition for the same diagnostic, in one run.
 * Both sides ask for the fixes of one unused import at a caret; the tool also validates the snapshot,
 * collects the file's diagnostics, normalises each fix and issues references.
 * Target: list-code-actions / direct ≤ 1.3 at p50.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { CodeActionService, createCodeActions } from '../src-main/host/code-actions/index.js';
import { createHost, type HostJournal } from '../src-main/host/index.js';
import { fmt, measureLatency } from './support/stats.js';

const FILES = 500;
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
/** Files the calls cycle through: an agent working on a handful of documents of a large project. */
const WORKING_SET = 25;

const journal: HostJournal = {
  commit: () => Promise.reject(new Error('the benchmark never commits')),
  status: () => ({ stateDir: '', healthy: true, entries: [] }),
  blockedWorkspaces: () => [],
};

async function generateProject(root: string): Promise<void> {
  await mkdir(join(root, 'src', 'lib'), { recursive: true });
  await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, types: [] } }));
  for (let m = 0; m < 10; m++) {
    await writeFile(join(root, 'src', 'lib', `m${m}.ts`), `export function helper${m}(x: number): number {\n  return x + ${m};\n}\n\nexport const unused${m} = ${m};\n`);
  }
  for (let i = 0; i < FILES - 10; i++) {
    const m = i % 10;
    await writeFile(
      join(root, 'src', `f${i}.ts`),
      `import { helper${m}, unused${m} } from './lib/m${m}';\n\nexport function f${i}(x: number): number {\n  const y = helper${m}(x) * ${i};\n  return y + ${i};\n}\n`,
    );
  }
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'junction-bench-code-actions-'));
  const host = createHost({ mode: 'transactional', toolOutputSchema: 'publish', journal, watch: false });
  try {
    await generateProject(root);
    await host.openWorkspace(root, { trusted: true });
    const codeActions = createCodeActions(host, { mode: 'transactional', toolOutputSchema: 'publish' });
    const workspace = host.extensions.workspaces.resolve(undefined);
    const ctx = { callId: 'bench', agent: 'bench', transport: 'http-api' as const, signal: new AbortController().signal };

    const targets = Array.from({ length: WORKING_SET }, (_, n) => {
      const i = n * Math.floor((FILES - 10) / WORKING_SET);
      const path = `src/f${i}.ts`;
      const text = workspace.snapshot().get(path)!.text;
      const start = text.indexOf(`unused${i % 10}`);
      return { path, fileName: join(workspace.realRoot, path), start, length: `unused${i % 10}`.length };
    });
    // Check the whole program once so both sides measure a warm service, not first-time checking.
    const ls = workspace.languageService();
    for (const sf of ls.getProgram()!.getSourceFiles()) ls.getSemanticDiagnostics(sf.fileName);

    let toolIndex = 0;
    const viaTool = async () => {
      const t = targets[toolIndex++ % targets.length]!;
      const outcome = await codeActions.toolSource.callTool('list-code-actions', { document: { path: t.path }, kinds: 'CodeFixes', range: { start: { offset: t.start }, end: { offset: t.start } }, expectedSnapshot: workspace.identity() }, ctx);
      if (outcome.result.isError) throw new Error(JSON.stringify(outcome.result.structuredContent));
    };
    // The same operation without the tool layer's argument binding, result admission and JSON text block.
    const service = new CodeActionService({ workspaces: host.extensions.workspaces, transactions: host.extensions.transactions });
    let serviceIndex = 0;
    const viaService = async () => {
      const t = targets[serviceIndex++ % targets.length]!;
      service.list({ path: t.path, kinds: 'codeFixes', range: { start: { offset: t.start }, end: { offset: t.start } }, expectedSnapshot: workspace.identity(), limit: 50 });
    };
    let directIndex = 0;
    const format = ts.getDefaultFormatCodeSettings('\n');
    const direct = async () => {
      const t = targets[directIndex++ % targets.length]!;
      const fixes = workspace.languageService().getCodeFixesAtPosition(t.fileName, t.start, t.start + t.length, [6133], format, {});
      if (fixes.length === 0) throw new Error(`no fix in ${t.path}`);
    };

    // Interleaved rounds so drift (GC, the other process on the machine) hits both sides alike.
    const rounds = 4;
    const sides = { direct, service: viaService, tool: viaTool };
    const p50s: Record<keyof typeof sides, number[]> = { direct: [], service: [], tool: [] };
    const p99s: Record<keyof typeof sides, number[]> = { direct: [], service: [], tool: [] };
    for (let r = 0; r < rounds; r++) {
      for (const [name, op] of Object.entries(sides) as Array<[keyof typeof sides, () => Promise<void>]>) {
        const stats = await measureLatency(op, CALLS / rounds);
        p50s[name].push(stats.p50);
        p99s[name].push(stats.p99);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const row = (label: string, name: keyof typeof sides) => `  ${label.padEnd(44)} p50 ${fmt(median(p50s[name]))}  p99 ${fmt(median(p99s[name]))}`;
    const ratio = (name: keyof typeof sides) => `p50 ${fmt(median(p50s[name]) / median(p50s.direct), 2)}  p99 ${fmt(median(p99s[name]) / median(p99s.direct), 2)}`;
    console.log(`code actions on a warm ${FILES}-file project, ${CALLS} calls per side cycling ${WORKING_SET} files (median of ${rounds} interleaved rounds), ms`);
    console.log(row('direct getCodeFixesAtPosition', 'direct'));
    console.log(row('CodeActionService.list (no tool layer)', 'service'));
    console.log(row('list-code-actions through its ToolSource', 'tool'));
    console.log(`  ratio service/direct ${ratio('service')}`);
    console.log(`  ratio list-code-actions/direct ${ratio('tool')}  (target p50 <= 1.3)`);
  } finally {
    host.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
