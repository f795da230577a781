// What a page's first `Intl` object costs its main thread (issue 85), not a test. Each kind of first
// use the site's pages make (a French date in Paris's zone, the same in UTC, the parts of a Paris
// time read in English, the visitor's own zone, a number, a date's `toLocaleString`) is made in a
// fresh browser context on a blank page, then made again: the first includes ICU starting in the
// page's process, the second is the format alone. No CPU throttle: this machine's own time.
// Writes bench/results/intl-first-use.md and .json.
//   node bench/intl-first-use.mjs [--runs=5]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './lib/browser.mjs';
import { arg } from './lib/cli.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(arg('runs', '5'));

/** Each first use, as the site's code makes it (shared/src/ui/Card.tsx, shared/src/schedule.ts, …). */
const USES = {
  'date, fr-FR, Europe/Paris': `new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/Paris' }).format(0)`,
  'date, fr-FR, UTC': `new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(0)`,
  'Paris parts, en-US': `new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Paris', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(0)`,
  'the visitor’s zone': `new Intl.DateTimeFormat().resolvedOptions().timeZone`,
  'number, fr-FR': `new Intl.NumberFormat('fr-FR').format(1234)`,
  'Date#toLocaleString': `new Date(0).toLocaleString('fr-FR')`,
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const browser = await launch();
const times = Object.fromEntries(Object.keys(USES).map((name) => [name, { first: [], again: [] }]));
try {
  // In turns, so that the machine's ups and downs fall on every kind alike.
  for (let run = 0; run < RUNS; run += 1) {
    for (const [name, code] of Object.entries(USES)) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto('data:text/html,<p>x</p>');
      const [first, again] = await page.evaluate(
        `(() => { const t0 = performance.now(); ${code}; const t1 = performance.now(); ${code}; return [t1 - t0, performance.now() - t1]; })()`,
      );
      times[name].first.push(first);
      times[name].again.push(again);
      await context.close();
    }
  }
} finally {
  await browser.close();
}

const rows = Object.entries(times).map(([use, { first, again }]) => ({
  use,
  firstMs: Math.round(median(first) * 10) / 10,
  againMs: Math.round(median(again) * 10) / 10,
  firstRuns: first.map((value) => value.toFixed(1)).join(', '),
}));
const lines = [
  `# A page's first \`Intl\` object (${new Date().toISOString().slice(0, 10)})`,
  '',
  `\`node bench/intl-first-use.mjs --runs=${String(RUNS)}\`: each first use in a fresh browser context on a blank page, then the same again; medians, this machine's CPU, no throttle.`,
  '',
  '| first use | first (ms) | again (ms) | first, each run (ms) |',
  '| --- | ---: | ---: | --- |',
  ...rows.map((row) => `| ${row.use} | ${String(row.firstMs)} | ${String(row.againMs)} | ${row.firstRuns} |`),
  '',
];
console.log(lines.join('\n'));
writeFileSync(join(here, 'bench', 'results', 'intl-first-use.md'), lines.join('\n'));
writeFileSync(join(here, 'bench', 'results', 'intl-first-use.json'), `${JSON.stringify(rows, null, 2)}\n`);
