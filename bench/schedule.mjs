// The schedule's expansion (issue 24), not a test: the demo's calendar (56 residences, a month
// around today) and a calendar of 50,000 one-off events, expanded as /api/schedule does (once per
// version and per day). Writes bench/results/schedule.md.
//   node --import ./server/tsx.mjs bench/schedule.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandCalendar } from '../server/src/api/schedule/expand.ts';
import { demoScheduleIcs } from '../server/src/api/schedule/demo.ts';
import { loadResidences } from '../server/src/api/demo/residences.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DAY = 24 * 3600 * 1000;
const today = Math.floor(Date.now() / DAY) * DAY;
const window = { from: today - DAY, to: today + 29 * DAY, defaultZone: 'Europe/Paris' };

function time(label, text, runs) {
  expandCalendar(text, window);
  const started = performance.now();
  let result;
  for (let i = 0; i < runs; i += 1) result = expandCalendar(text, window);
  const ms = (performance.now() - started) / runs;
  return {
    label,
    bytes: Buffer.byteLength(text),
    occurrences: result.occurrences.length,
    problems: result.problems.length,
    ms: Math.round(ms * 10) / 10,
  };
}

const demo = demoScheduleIcs(loadResidences(join(root, 'shared', 'content', 'residences.json')), new Date());
const pad = (n) => String(n).padStart(2, '0');
const stamp = (t) => {
  const d = new Date(t);
  return `${String(d.getUTCFullYear())}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00Z`;
};
const huge = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//bench//FR',
  ...Array.from({ length: 50_000 }, (_, i) =>
    [
      'BEGIN:VEVENT',
      `UID:${String(i)}@bench`,
      `DTSTART:${stamp(today - 200 * DAY + i * 3600 * 1000)}`,
      'DURATION:PT1H',
      `SUMMARY:Émission ${String(i)}`,
      'END:VEVENT',
    ].join('\r\n'),
  ),
  'END:VCALENDAR',
].join('\r\n');

const rows = [time('demo (56 residences)', demo, 20), time('50,000 one-off events', huge, 2)];
const lines = [
  `# Schedule expansion (${new Date().toISOString().slice(0, 10)}, ${String(cpus().length)} cœurs)`,
  '',
  'One expansion of a calendar for the window /api/schedule keeps (yesterday to 28 days on), as done once per version of the calendars and per day. `node --import ./server/tsx.mjs bench/schedule.mjs`.',
  '',
  '| calendar | bytes | occurrences kept | problems | ms |',
  '| --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) => `| ${r.label} | ${String(r.bytes)} | ${String(r.occurrences)} | ${String(r.problems)} | ${String(r.ms)} |`,
  ),
  '',
];
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'schedule.md'), lines.join('\n'));
console.log(lines.join('\n'));
