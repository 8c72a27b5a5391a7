// `npm run bench`: runs every section in bench/sections, prints one table, writes bench/results.json.
// Ratios are against a floor measured in the same run, since this machine is noisy.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { removeTmpDirs } from './lib.mjs';

const only = process.argv.slice(2);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 30);
const sections = readdirSync(new URL('./sections/', import.meta.url))
  .filter((f) => f.endsWith('.mjs'))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.mjs$/, '')))
  .sort();
const rows = [];
const loadBefore = loadavg();
for (const file of sections) {
  const t0 = Date.now();
  process.stderr.write(`bench: ${file} …\n`);
  try {
    const mod = await import(new URL(`./sections/${file}`, import.meta.url));
    rows.push(...(await mod.bench({ iterations })));
  } catch (err) {
    process.stderr.write(`bench: ${file} failed: ${err instanceof Error ? err.stack : err}\n`);
    process.exitCode = 1;
  } finally {
    removeTmpDirs(); // a daemon a section started stops by itself once its home is gone
  }
  process.stderr.write(`bench: ${file} done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
const header = ['section', 'name', 'median_ms', 'p95_ms', 'floor_name', 'floor_median_ms', 'ratio', 'target'];
const table = [header, ...rows.map((r) => header.map((h) => String(r[h] ?? '')))];
const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(line(table[0]));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of table.slice(1)) console.log(line(r));
// The machine is shared: say how busy it was (1/5/15-minute load averages) before and after the run.
const loadAfter = loadavg();
const fmt = (l) => l.map((x) => x.toFixed(2)).join(' ');
console.log(`load average: ${fmt(loadBefore)} before, ${fmt(loadAfter)} after (${cpus().length} cpus)`);
// A run of named sections replaces only their rows: the other sections' rows of the last run stay.
const file = new URL('./results.json', import.meta.url);
const ran = sections.map((f) => f.replace(/\.mjs$/, ''));
const kept =
  only.length > 0 && existsSync(file)
    ? JSON.parse(readFileSync(file, 'utf8')).rows.filter((r) => !ran.includes(r.section))
    : [];
const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  load_before: loadBefore,
  load_after: loadAfter,
  iterations,
  sections_run: ran,
  rows: [...kept, ...rows],
};
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
