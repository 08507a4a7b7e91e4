// Runs every *.test.ts under test/ with node's own test runner. Node 20 has no glob support in
// --test, so the file list is built here; arguments narrow it (e.g. `node scripts/run-tests.mjs test/unit`).
// The TAP stream passes through unchanged; the failures are printed again after it, each under its full
// name, because CI keeps only the end of a long log and a failure reported early would otherwise be lost.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

function collect(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (entry.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/** Collects each failed test's name path and YAML diagnostics from node's TAP output, line by line. */
function failureCollector() {
  const names = [];
  const failures = [];
  let open = null;
  return {
    line(text) {
      if (open) {
        if (text.startsWith(open.indent + '  ')) {
          open.lines.push(text.slice(open.indent.length));
          if (text === open.indent + '  ...') open = null;
          return;
        }
        open = null;
      }
      const subtest = /^( *)# Subtest: (.*)$/.exec(text);
      if (subtest) {
        const depth = subtest[1].length / 4;
        names.length = depth;
        names[depth] = subtest[2];
        return;
      }
      const failed = /^( *)not ok \d+ - (.*)$/.exec(text);
      if (failed) {
        const depth = failed[1].length / 4;
        const path = [...names.slice(0, depth), failed[2]].join(' > ');
        open = { indent: failed[1], lines: [], path };
        failures.push(open);
      }
    },
    /** Parents that failed only because a subtest did are left out: the subtest is printed. */
    report() {
      return failures.filter((f) => !f.lines.some((l) => l.includes("failureType: 'subtestsFailed'")));
    },
  };
}

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['test'];
const files = roots.flatMap((r) => (statSync(r).isDirectory() ? collect(r) : [r])).sort();
if (files.length === 0) {
  console.error('no test files found under', roots.join(', '));
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=120000', ...files],
  { stdio: ['inherit', 'pipe', 'inherit'] },
);
const failures = failureCollector();
createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (text) => {
  process.stdout.write(text + '\n');
  failures.line(text);
});
child.on('close', (code, signal) => {
  const failed = failures.report();
  if (failed.length > 0) {
    process.stdout.write(`\n# ${failed.length} failed test(s), again:\n`);
    for (const f of failed) process.stdout.write(`\nnot ok - ${f.path}\n${f.lines.join('\n')}\n`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
