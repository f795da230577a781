// The live archives (issue 83, docs/archive.md), not a test: what writing a two-hour show's archive
// costs the server. A timeline's folder is generated as the recorder writes it (10-second packed-audio
// segments of 128 kb/s MPEG-1 frames at 44.1 kHz, two hours and ten minutes of them, one gap of 30 s),
// then the archive of the two-hour slot is made `--runs` times in this process, each measured:
//   1. the wall time, and the CPU time (user + system) of the process;
//   2. the resident memory and the heap above what they were before (sampled every 20 ms);
//   3. the event loop's longest delay while it ran (perf_hooks), which is what the recorder, in the
//      same process, would wait for a frame;
//   4. the time from the slot's end to the archive listed: the archiver's look (every 30 s), its
//      settling (two segments and two seconds), and the writing.
// Writes bench/results/archive.md and bench/results/archive.json.
//   node --import ./server/tsx.mjs bench/archive.mjs [--runs=3] [--hours=2]
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { makeArchive } from '../server/src/archive/make.ts';
import { CHECK_MS } from '../server/src/archive/plugin.ts';
import { packedAudioTag } from '../server/src/timeshift/packed.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.split('=')[1]);
};
const RUNS = arg('runs', 3);
const HOURS = arg('hours', 2);
const SEGMENT_MS = 10_000;
/** 128 kb/s, 44.1 kHz, MPEG-1 layer III: 417 bytes (418 padded), 1,152 samples. */
const FRAME_MS = (1152 / 44100) * 1000;

/** A frame of 128 kb/s: its header, then bytes that are not a sync word. */
function frame(index, padded) {
  const bytes = Buffer.alloc(padded ? 418 : 417, 0x11 + (index % 200));
  bytes.set([0xff, 0xfb, padded ? 0x92 : 0x90, 0x64], 0);
  return bytes;
}

/** The window as the recorder writes it: runs cut into 10-second segments on the grid. */
function writeWindow(dir, runs) {
  mkdirSync(dir, { recursive: true });
  const segments = [];
  let index = 0;
  runs.forEach((run, epoch) => {
    let current = null;
    const finish = () => {
      if (current === null) return;
      const data = Buffer.concat([packedAudioTag(current.start), ...current.frames]);
      writeFileSync(join(dir, `${String(current.sequence)}.mp3`), data);
      segments.push({
        sequence: current.sequence,
        start: Math.round(current.start),
        duration: (current.frames.length * FRAME_MS) / 1000,
        bytes: data.length,
        epoch,
      });
    };
    for (let at = run.from; at < run.to; at += FRAME_MS) {
      index += 1;
      const sequence = Math.floor(at / SEGMENT_MS);
      if (current === null || current.sequence !== sequence) {
        finish();
        current = { sequence, start: at, frames: [] };
      }
      current.frames.push(frame(index, index % 3 === 0));
    }
    finish();
  });
  writeFileSync(join(dir, 'index.json'), JSON.stringify({ version: 1, segments }));
  return segments;
}

const work = mkdtempSync(join(tmpdir(), 'bench-archive-'));
const windowDir = join(work, 'direct', 'normale');
const start = Math.ceil(Date.UTC(2026, 10, 24, 19) / SEGMENT_MS) * SEGMENT_MS;
const end = start + HOURS * 3600_000;
const generatedAt = performance.now();
const segments = writeWindow(windowDir, [
  { from: start - 5 * 60_000, to: start + 3600_000 },
  { from: start + 3600_000 + 30_000, to: end + 5 * 60_000 },
]);
const windowBytes = segments.reduce((sum, segment) => sum + segment.bytes, 0);
console.log(
  `fenêtre : ${String(segments.length)} segments, ${(windowBytes / 1e6).toFixed(1)} Mo, générée en ${((performance.now() - generatedAt) / 1000).toFixed(1)} s`,
);
// 120 tracks: one every minute.
const tracks = Array.from({ length: HOURS * 60 }, (_, i) => ({
  at: start + i * 60_000,
  artist: `Artiste ${String(i)}`,
  title: `Morceau numéro ${String(i)}`,
}));

const runs = [];
for (let run = 0; run < RUNS; run += 1) {
  const dir = join(work, `archives-${String(run)}`);
  mkdirSync(dir);
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  let rssPeak = rssBefore;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    rssPeak = Math.max(rssPeak, usage.rss);
    heapPeak = Math.max(heapPeak, usage.heapUsed);
  }, 20);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = process.cpuUsage();
  const began = performance.now();
  const outcome = await makeArchive(
    {
      id: `bench-2026-11-24-20h00`,
      residence: 'bench',
      start,
      end,
      title: 'Banc d’essai — direct',
      artist: 'Banc',
      tracks,
      published: true,
    },
    { windowDir, dir, keepMs: 4 * 3600_000, now: () => end + 30_000, reserveBytes: 0 },
  );
  const wallMs = performance.now() - began;
  const used = process.cpuUsage(cpu);
  loop.disable();
  clearInterval(sampler);
  if (outcome.kind !== 'written') throw new Error(`${outcome.kind} : ${outcome.reason}`);
  const size = statSync(join(dir, 'bench-2026-11-24-20h00.mp3')).size;
  runs.push({
    wallMs: Math.round(wallMs),
    cpuMs: Math.round((used.user + used.system) / 1000),
    rssAddedMb: Number(((rssPeak - rssBefore) / 1e6).toFixed(1)),
    heapAddedMb: Number(((heapPeak - heapBefore) / 1e6).toFixed(1)),
    loopMaxMs: Number((loop.max / 1e6).toFixed(1)),
    loopP99Ms: Number((loop.percentile(99) / 1e6).toFixed(1)),
    mp3Mb: Number((size / 1e6).toFixed(1)),
    seconds: outcome.record.seconds,
    gaps: outcome.record.gaps.length,
    chapters: outcome.record.chapters.length,
  });
  console.log(JSON.stringify(runs.at(-1)));
  rmSync(dir, { recursive: true, force: true });
}
rmSync(work, { recursive: true, force: true });

const median = (key) => {
  const sorted = runs.map((run) => run[key]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const settleMs = 2 * SEGMENT_MS + 2000;
const summary = {
  date: new Date().toISOString(),
  machine: `${String(cpus().length)} × ${cpus()[0]?.model ?? '?'}`,
  node: process.version,
  hours: HOURS,
  windowSegments: segments.length,
  runs,
  median: Object.fromEntries(
    ['wallMs', 'cpuMs', 'rssAddedMb', 'heapAddedMb', 'loopMaxMs', 'loopP99Ms'].map((key) => [key, median(key)]),
  ),
  slotEndToListedMs: { best: settleMs + median('wallMs'), worst: settleMs + CHECK_MS + median('wallMs') },
};
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'archive.json'), `${JSON.stringify(summary, null, 2)}\n`);
const m = summary.median;
writeFileSync(
  join(results, 'archive.md'),
  [
    '# A two-hour show archived (bench/archive.mjs)',
    '',
    `${summary.date}, ${summary.machine}, Node ${summary.node}. A window of ${String(segments.length)} segments of 10 s (128 kb/s, one gap of 30 s), the archive of a ${String(HOURS)}-hour slot with ${String(HOURS * 60)} chapters, ${String(RUNS)} runs (median).`,
    '',
    '| what | median | runs |',
    '| --- | --- | --- |',
    `| wall time | ${String(m.wallMs)} ms | ${runs.map((r) => r.wallMs).join(', ')} |`,
    `| CPU (user + system) | ${String(m.cpuMs)} ms | ${runs.map((r) => r.cpuMs).join(', ')} |`,
    `| resident memory added (peak) | ${String(m.rssAddedMb)} MB | ${runs.map((r) => r.rssAddedMb).join(', ')} |`,
    `| heap added (peak) | ${String(m.heapAddedMb)} MB | ${runs.map((r) => r.heapAddedMb).join(', ')} |`,
    `| event loop's longest delay | ${String(m.loopMaxMs)} ms | ${runs.map((r) => r.loopMaxMs).join(', ')} |`,
    `| event loop's delay, 99th percentile | ${String(m.loopP99Ms)} ms | ${runs.map((r) => r.loopP99Ms).join(', ')} |`,
    `| the MP3 | ${String(runs[0]?.mp3Mb)} MB, ${String(runs[0]?.seconds)} s, ${String(runs[0]?.gaps)} gap | |`,
    '',
    `From a slot's end to its archive listed: ${(summary.slotEndToListedMs.best / 1000).toFixed(1)} s to ${(summary.slotEndToListedMs.worst / 1000).toFixed(1)} s (two segments and two seconds of settling, up to one look of ${String(CHECK_MS / 1000)} s, and the writing).`,
    '',
  ].join('\n'),
);
console.log(JSON.stringify(summary.median), JSON.stringify(summary.slotEndToListedMs));
