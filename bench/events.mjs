// The events' reading (docs/events.md, « Limits »), not a test: the demo's events calendar and a
// hostile calendar of 50,000 one-off events, read as the server reads them (once per version and
// per day, readEventCalendars: the schedule's walk, then every property of each occurrence), on the
// event loop and by the schedule's thread, with how long the event loop was held meanwhile; then
// the subscription file (/api/events.ics) written from what was read. Writes bench/results/events.md.
//   node --import ./server/tsx.mjs bench/events.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoEventsIcs, loadDemoEvents } from '../server/src/events/demo.ts';
import { eventIcsItem, eventsCalendar } from '../server/src/events/ics.ts';
import { readEventCalendars } from '../server/src/events/read.ts';
import { loadResidences } from '../server/src/schedule/demo-residences.ts';
import { calendarIcs } from '../server/src/schedule/ics.ts';
import { ScheduleWorker } from '../server/src/schedule/schedule-worker.ts';
import { hugeCalendar } from '../server/src/schedule/test-calendars.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DAY = 24 * 3600 * 1000;
const today = Math.floor(Date.now() / DAY) * DAY;
const residences = loadResidences(join(root, 'shared', 'content', 'residences.json')).map(({ id, artist }) => ({
  id,
  artist,
}));
const options = { today, defaultZone: 'Europe/Paris', residences };
const files = { origin: 'https://radio.example.org', eventPath: 'evenements/:slug' };
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

const demo = demoEventsIcs(loadDemoEvents(join(root, 'server', 'content', 'demo-events.json')), new Date());
const huge = hugeCalendar(today);
const worker = new ScheduleWorker();
const rows = [];
for (const [label, text, runs] of [
  ['demo', demo, 20],
  ['50,000 one-off events', huge, 3],
]) {
  const inline = await measure(() => readEventCalendars([text], options), runs);
  const threaded = await measure(() => worker.readEvents([text], options), runs);
  const items = inline.result.events.map((event) => eventIcsItem(event, files));
  const file = await measure(() => calendarIcs(items, eventsCalendar(today, true)), runs);
  const fileThreaded = await measure(() => worker.writeCalendar(items, eventsCalendar(today, true)), runs);
  rows.push({
    label,
    bytes: Buffer.byteLength(text),
    events: inline.result.events.length,
    problems: inline.result.problems,
    inline,
    threaded,
    file,
    fileThreaded,
    fileBytes: Buffer.byteLength(file.result),
  });
}
await worker.close();

const lines = [
  `# Events reading (${new Date().toISOString().slice(0, 10)}, ${String(cpus().length)} cœurs)`,
  '',
  'An events calendar read as the server reads it, once per version of the calendars and per day (five years back to two ahead): on the event loop, then by the schedule’s thread (as the server does). « held »: the longest the event loop waited meanwhile (the longest gap between two ticks of a 1 ms timer). Then the subscription file (`GET /api/events.ics`) written from it. `node --import ./server/tsx.mjs bench/events.mjs`.',
  '',
  '| calendar | bytes | events kept | reading on the loop: ms / held | reading by the thread: ms / held | file bytes | file on the loop: ms / held | file by the thread: ms / held |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${String(r.bytes)} | ${String(r.events)} | ${String(r.inline.ms)} / ${String(r.inline.held)} | ${String(r.threaded.ms)} / ${String(r.threaded.held)} | ${String(r.fileBytes)} | ${String(r.file.ms)} / ${String(r.file.held)} | ${String(r.fileThreaded.ms)} / ${String(r.fileThreaded.held)} |`,
  ),
  '',
  'What was left out (logged once per version of the calendars):',
  '',
  ...rows.map((r) => `- ${r.label}: ${r.problems.length === 0 ? 'nothing' : r.problems.join(' ; ')}`),
  '',
];
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'events.md'), lines.join('\n'));
console.log(lines.join('\n'));
