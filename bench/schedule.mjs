// The schedule's expansion (issue 24), not a test: the demo's calendar (56 residences) and a
// calendar of 50,000 one-off events, expanded as /api/schedule does (once per version and per
// day): on the event loop as before, then by the schedule's thread as the server does now, with
// how long the event loop was held meanwhile; and the subscription file written from the
// expansion (once per expansion), on the loop and by the thread. Also 5,000 shows (the most an
// expansion keeps) written as a file. Writes bench/results/schedule.md.
//   node --import ./server/tsx.mjs bench/schedule.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandCalendar, readCalendar } from '../server/src/schedule/expand.ts';
import { demoScheduleIcs } from '../server/src/schedule/demo.ts';
import { scheduleIcs } from '../server/src/schedule/ics.ts';
import { ScheduleWorker } from '../server/src/schedule/schedule-worker.ts';
import { loadResidences } from '../server/src/schedule/demo-residences.ts';
import { hugeCalendar } from '../server/src/schedule/test-calendars.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DAY = 24 * 3600 * 1000;
const today = Math.floor(Date.now() / DAY) * DAY;
// The window /api/schedule expands: from the week before this one to 28 days on (UTC days).
const window = { from: today - 14 * DAY, to: today + 29 * DAY, defaultZone: 'Europe/Paris' };
const round = (ms) => Math.round(ms * 10) / 10;

/**
 * Runs `work` `runs` times (after one warm-up): the mean time, and the event loop's longest wait
 * meanwhile (the longest gap between two ticks of a 1 ms timer; after each run the loop is let turn).
 */
async function measure(work, runs) {
  await work();
  let last = performance.now();
  let held = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last);
    last = now;
  }, 1);
  let total = 0;
  let result;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    result = await work();
    total += performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  clearInterval(timer);
  return { result, ms: round(total / runs), held: round(held) };
}

const demo = demoScheduleIcs(loadResidences(join(root, 'shared', 'content', 'residences.json')), new Date());
const huge = hugeCalendar(today);

const worker = new ScheduleWorker();
const rows = [];
for (const [label, text, runs] of [
  ['demo (56 residences)', demo, 20],
  ['50,000 one-off events', huge, 3],
]) {
  const check = await measure(() => readCalendar(text), runs);
  const inline = await measure(() => expandCalendar(text, window), runs);
  const threaded = await measure(async () => (await worker.expand([text], window))[0], runs);
  const checkThreaded = await measure(() => worker.check(text), runs);
  const events = inline.result.occurrences.map((o) => ({ ...o, residence: null }));
  const options = {
    name: 'Programme',
    subscription: true,
    origin: 'https://radio.example.org',
    stamp: today,
    product: 'bench',
  };
  const file = await measure(() => scheduleIcs(events, options), runs);
  const fileThreaded = await measure(() => worker.write(events, options), runs);
  rows.push({
    label,
    bytes: Buffer.byteLength(text),
    occurrences: inline.result.occurrences.length,
    problems: inline.result.problems.length,
    check,
    checkThreaded,
    inline,
    threaded,
    file,
    fileThreaded,
    fileBytes: Buffer.byteLength(file.result),
  });
}
{
  // The most an expansion keeps: 5,000 shows, every ten minutes.
  const events = Array.from({ length: 5000 }, (_, i) => ({
    id: `${String(i)}@bench/${new Date(today + i * 600_000).toISOString()}`,
    title: `Émission ${String(i)}, spéciale`,
    start: new Date(today + i * 600_000).toISOString(),
    end: new Date(today + i * 600_000 + 3_600_000).toISOString(),
    allDay: false,
    residence: null,
  }));
  const options = {
    name: 'Programme',
    subscription: true,
    origin: 'https://radio.example.org',
    stamp: today,
    product: 'bench',
  };
  const file = await measure(() => scheduleIcs(events, options), 3);
  const fileThreaded = await measure(() => worker.write(events, options), 3);
  rows.push({ label: '5,000 shows', occurrences: 5000, file, fileThreaded, fileBytes: Buffer.byteLength(file.result) });
}
await worker.close();

const lines = [
  `# Schedule expansion (${new Date().toISOString().slice(0, 10)}, ${String(cpus().length)} cœurs)`,
  '',
  'A calendar checked as fetched (readCalendar) and expanded for the window /api/schedule keeps (the week before this one to 28 days on), as done once per version of the calendars and per day: on the event loop (before), then by the schedule’s thread (now). « held »: the longest the event loop waited meanwhile (the longest gap between two ticks of a 1 ms timer). `node --import ./server/tsx.mjs bench/schedule.mjs`.',
  '',
  '| calendar | bytes | occurrences kept | problems | check on the loop: ms / held | check by the thread: ms / held | expansion on the loop: ms / held | expansion by the thread: ms / held |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows
    .filter((r) => r.inline !== undefined)
    .map(
      (r) =>
        `| ${r.label} | ${String(r.bytes)} | ${String(r.occurrences)} | ${String(r.problems)} | ${String(r.check.ms)} / ${String(r.check.held)} | ${String(r.checkThreaded.ms)} / ${String(r.checkThreaded.held)} | ${String(r.inline.ms)} / ${String(r.inline.held)} | ${String(r.threaded.ms)} / ${String(r.threaded.held)} |`,
    ),
  '',
  'The subscription file (`GET /api/schedule.ics`) written from the expansion, once per expansion, on the event loop and by the thread (as the server does now):',
  '',
  '| shows | VEVENTs | bytes | on the loop: ms / held | by the thread: ms / held |',
  '| --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${String(r.occurrences)} | ${String(r.fileBytes)} | ${String(r.file.ms)} / ${String(r.file.held)} | ${String(r.fileThreaded.ms)} / ${String(r.fileThreaded.held)} |`,
  ),
  '',
];
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'schedule.md'), lines.join('\n'));
console.log(lines.join('\n'));
