// Runs every *.test.ts under test/ with node's own test runner. Node 20 has no glob support in
// --test, so the file list is built here; arguments narrow it (e.g. `node scripts/run-tests.mjs test/unit`).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (entry.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['test'];
const files = roots.flatMap((r) => (statSync(r).isDirectory() ? collect(r) : [r])).sort();
if (files.length === 0) {
  console.error('no test files found under', roots.join(', '));
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=120000', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
