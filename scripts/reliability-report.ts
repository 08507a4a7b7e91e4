/**
 * `npm run report:reliability`: runs the short fault, fuzz and soak scenarios (the same code the
 * CI suites run) and prints one table: attacks tried and refused, faults injected and survived,
 * calls sent/answered/lost, RSS start/end. Exits non-zero when anything was violated.
 * REPORT_SOAK_SECONDS (default 20) and REPORT_FUZZ_RUNS (default 40) size it.
 */
import { FAULT_SCENARIOS, survived, type FaultResult } from '../test/reliability/scenarios/faults.js';
import { runAllFuzzers } from '../test/reliability/scenarios/fuzz-stage.js';
import { runSoak } from '../test/reliability/scenarios/soak.js';

const soakSeconds = Number(process.env.REPORT_SOAK_SECONDS ?? 20);
const fuzzRuns = Number(process.env.REPORT_FUZZ_RUNS ?? 40);

type Row = [section: string, item: string, a: string, b: string, verdict: string];
const rows: Row[] = [];
const problems: string[] = [];

const fuzz = await runAllFuzzers(fuzzRuns);
for (const t of fuzz.tallies) {
  rows.push(['attacks', t.category, `${t.tried} tried`, `${t.refused} refused, ${t.accepted} accepted`, t.violations.length === 0 ? 'ok' : `${t.violations.length} VIOLATIONS`]);
  problems.push(...t.violations.map((v) => `${t.category}: ${v}`));
}
const attacksTried = fuzz.tallies.reduce((n, t) => n + t.tried, 0);
const attacksRefused = fuzz.tallies.reduce((n, t) => n + t.refused, 0);
rows.push(['attacks', 'total', `${attacksTried} tried`, `${attacksRefused} refused`, fuzz.healthyAfter ? 'healthy plugin still served' : 'HEALTHY PLUGIN LOST']);
if (!fuzz.healthyAfter) problems.push('a healthy plugin stopped being served during the fuzzing');

const faults: FaultResult[] = [];
for (const scenario of FAULT_SCENARIOS) faults.push(await scenario());
for (const f of faults) {
  rows.push(['faults', f.fault, 'injected', f.detail, survived(f) ? 'survived' : 'NOT SURVIVED']);
  if (!survived(f)) problems.push(`${f.fault}: ${f.detail}, healthy after: ${f.healthyAfter}`);
}
rows.push(['faults', 'total', `${faults.length} injected`, `${faults.filter(survived).length} survived`, faults.every(survived) ? 'ok' : 'FAILED']);

const soak = await runSoak({ seconds: soakSeconds });
const errors = Object.entries(soak.structuredErrors).map(([code, n]) => `${code} ${n}`).join(', ') || 'none';
rows.push(['calls', `soak ${soak.seconds} s, ${soak.reconnects} link cuts`, `${soak.sent} sent`, `${soak.answered} answered (${soak.results} results; errors: ${errors})`, soak.failures.length === 0 ? 'ok' : 'FAILED']);
rows.push(['calls', 'lost / duplicated / phantom', `${soak.lost} lost`, `${soak.duplicated} duplicated, ${soak.phantom} phantom, ${soak.resentAndExecuted} re-sent then executed once`, soak.lost + soak.duplicated + soak.phantom === 0 ? 'ok' : 'FAILED']);
problems.push(...soak.failures.map((f) => `soak: ${f}`));
rows.push(['memory', 'RSS during fuzzing (MB)', `start ${fuzz.rss.startMb}`, `end ${fuzz.rss.endMb}, max ${fuzz.rss.maxMb}`, '']);
rows.push(['memory', 'RSS during soak (MB)', `start ${soak.rss.startMb}`, `end ${soak.rss.endMb}, max ${soak.rss.maxMb}`, '']);

const header: Row = ['section', 'item', 'count', 'detail', 'verdict'];
const widths = header.map((_, i) => Math.min(70, Math.max(...[header, ...rows].map((r) => r[i]!.length))));
const line = (r: Row) => r.map((cell, i) => cell.slice(0, widths[i]).padEnd(widths[i]!)).join(' | ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('-+-'));
for (const r of rows) console.log(line(r));
if (problems.length > 0) {
  console.log('\nproblems:');
  for (const p of problems) console.log(`  - ${p}`);
  process.exit(1);
}
process.exit(0);
