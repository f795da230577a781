// The live's timeline (issue 60), not a test: what recording costs the server, and what a listener
// going back downloads. A real Icecast (Debian's icecast2, server/src/timeshift/testing/icecast.ts)
// fed the demo's two mounts in real time, and the deployment as its tests start it
// (server/deploy/harness.ts: the built server, Redis, nginx running deploy/nginx.conf), once with
// LIVE_TIMESHIFT_HOURS=0 and once recording both mounts, each measured over the same window:
//   1. the server's CPU (its process and those it started, from /proc) and resident memory;
//   2. the disk the segments take an hour, per rendition;
//   3. the playlist's bytes a minute for a listener polling it as hls.js does (once a segment), full
//      and with delta updates (?_HLS_skip=YES), through nginx, compressed as nginx sends them; and the
//      full playlist of a 4-hour window, made from the recorded lines.
// Writes bench/results/timeshift.md and bench/results/timeshift.json.
//   node --import ./server/tsx.mjs bench/timeshift.mjs [--seconds=120] [--segment=10]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { startDeployment } from '../server/deploy/harness.ts';
import { demoMp3 } from '../server/src/timeshift/testing/demo-mp3.ts';
import { startIcecast } from '../server/src/timeshift/testing/icecast.ts';
import { startSource } from '../server/src/timeshift/testing/icecast-source.ts';
import { mediaPlaylist } from '../server/src/timeshift/playlist.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.split('=')[1]);
};
/** The measured window, after the warm-up. */
const SECONDS = arg('seconds', 120);
const SEGMENT_S = arg('segment', 10);
/** Before measuring: the server started, its first segments written, its heap settled. */
const WARM_UP_S = 30;
const WINDOW_HOURS = 4;
/** Clock ticks a second, as /proc counts CPU time. */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** The processes `pid` started, and theirs (from each process's parent in /proc). */
function descendants(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found = [];
  const walk = (at) => {
    for (const child of children.get(at) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** CPU time (user + system, in clock ticks) of a process; 0 once it is gone. */
function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Resident memory of a process, in kB; 0 once it is gone. */
function rssKb(pid) {
  try {
    const line = readFileSync(`/proc/${String(pid)}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line?.split(/\s+/)[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The server's process alone and with what it started: CPU ticks and resident kB. */
function sample(pid) {
  const all = [pid, ...descendants(pid)];
  return {
    at: Date.now(),
    serverTicks: cpuTicks(pid),
    treeTicks: all.reduce((sum, each) => sum + cpuTicks(each), 0),
    serverKb: rssKb(pid),
    treeKb: all.reduce((sum, each) => sum + rssKb(each), 0),
  };
}

/** A GET's status, body (decoded when gzip) and the bytes on the wire, as a browser asks for it. */
function fetchWire(url) {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = response.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: response.statusCode, wire: raw.length, body: body.toString('utf8') });
      });
      response.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * The heap a process keeps, in MB: it writes a heap snapshot on SIGUSR2 (after a full collection),
 * whose objects' own sizes are added up.
 */
async function liveHeapMb(pid, dir) {
  process.kill(pid, 'SIGUSR2');
  let file;
  let size = -1;
  for (let i = 0; i < 600; i += 1) {
    await delay(500);
    file = readdirSync(dir).find((name) => name.endsWith('.heapsnapshot'));
    if (file === undefined) continue;
    const now = statSync(join(dir, file)).size;
    if (now > 0 && now === size) break;
    size = now;
  }
  if (file === undefined) return null;
  const snapshot = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const fields = snapshot.snapshot.meta.node_fields;
  const selfSize = fields.indexOf('self_size');
  let bytes = 0;
  for (let at = selfSize; at < snapshot.nodes.length; at += fields.length) bytes += snapshot.nodes[at];
  return Math.round(bytes / 1e5) / 10;
}

/** Bytes of every segment file (`<sequence>.mp3`) of a rendition's folder. */
function segmentBytes(dir) {
  try {
    return readdirSync(dir)
      .filter((name) => /^\d+\.mp3$/.test(name))
      .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  } catch {
    return 0;
  }
}

const icecast = await startIcecast({ tls: true });
const sources = [
  await startSource(icecast, '/normale.mp3', { mp3: demoMp3('live.mp3') }),
  await startSource(icecast, '/econome.mp3', { mp3: demoMp3('live-econome.mp3') }),
];
const renditions = [
  { id: 'normale', label: 'Normale', url: icecast.tls.url('/normale.mp3'), bitrate: 128, codec: 'mp3' },
  { id: 'econome', label: 'Économe', url: icecast.tls.url('/econome.mp3'), bitrate: 48, codec: 'mp3' },
];
const env = {
  LIVE_RENDITIONS: JSON.stringify(renditions),
  LIVE_TIMESHIFT_SEGMENT_S: String(SEGMENT_S),
  NODE_EXTRA_CA_CERTS: icecast.tls.caFile,
  RENDERERS: '1',
};

const report = {
  date: new Date().toISOString(),
  machine: `${String(cpus().length)} cœurs, ${cpus()[0]?.model ?? ''}`.trim(),
  seconds: SECONDS,
  segmentSeconds: SEGMENT_S,
  runs: {},
  disk: [],
  playlist: null,
};

/** One deployment (one instance, Redis, nginx), measured over the window after the warm-up. */
async function measure(label, hours) {
  // A heap snapshot on SIGUSR2 once the figures are taken: V8 collects every garbage before writing it,
  // so the sizes of its objects are the heap the process keeps.
  const snapshots = mkdtempSync(join(tmpdir(), 'bench-timeshift-'));
  const deployment = await startDeployment({
    instances: 1,
    env: {
      ...env,
      LIVE_TIMESHIFT_HOURS: hours,
      NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}`,
    },
  });
  try {
    const [instance] = deployment.instances;
    const pid = instance.process.pid;
    console.log(`▶ ${label} : ${String(WARM_UP_S)} s de mise en route, puis ${String(SECONDS)} s mesurées`);
    await delay(WARM_UP_S * 1000);
    const diskBefore = renditions.map(({ id }) => segmentBytes(join(deployment.timeshiftDir, id)));
    const first = sample(pid);
    const samples = [first];
    const polls = { full: 0, delta: 0, count: 0 };
    const deadline = Date.now() + SECONDS * 1000;
    let nextPoll = Date.now();
    while (Date.now() < deadline) {
      await delay(1000);
      samples.push(sample(pid));
      // A listener going back, as hls.js polls: the media playlist once a segment, full and delta.
      if (hours !== '0' && Date.now() >= nextPoll) {
        nextPoll += SEGMENT_S * 1000;
        const full = await fetchWire(`${deployment.origin}/direct/normale/index.m3u8`);
        const delta = await fetchWire(`${deployment.origin}/direct/normale/index.m3u8?_HLS_skip=YES`);
        if (full.status === 200 && delta.status === 200) {
          polls.full += full.wire;
          polls.delta += delta.wire;
          polls.count += 1;
        }
      }
    }
    const last = samples.at(-1);
    const elapsedS = (last.at - first.at) / 1000;
    const run = {
      serverCpuPercent: Math.round(((last.serverTicks - first.serverTicks) / TICKS / elapsedS) * 1000) / 10,
      treeCpuPercent: Math.round(((last.treeTicks - first.treeTicks) / TICKS / elapsedS) * 1000) / 10,
      serverRssMb: Math.round(samples.reduce((sum, s) => sum + s.serverKb, 0) / samples.length / 102.4) / 10,
      serverRssAtStartMb: Math.round(first.serverKb / 102.4) / 10,
      serverRssAtEndMb: Math.round(last.serverKb / 102.4) / 10,
      serverRssMaxMb: Math.round(Math.max(...samples.map((s) => s.serverKb)) / 102.4) / 10,
      treeRssMb: Math.round(samples.reduce((sum, s) => sum + s.treeKb, 0) / samples.length / 102.4) / 10,
    };
    run.liveHeapMb = await liveHeapMb(pid, snapshots);
    report.runs[label] = run;
    console.log(run);
    if (hours !== '0') {
      renditions.forEach(({ id, bitrate }, index) => {
        const written = segmentBytes(join(deployment.timeshiftDir, id)) - (diskBefore[index] ?? 0);
        report.disk.push({
          rendition: id,
          bitrate,
          mbPerHour: Math.round(((written / elapsedS) * 3600) / 1e5) / 10,
          nominalMbPerHour: Math.round((bitrate * 1000 * 3600) / 8 / 1e5) / 10,
        });
      });
      // A full window of WINDOW_HOURS, written by the recorder's own code (the recorded playlist's
      // format, at the window's length), full and delta, compressed as nginx does (gzip level 1).
      const full = await fetchWire(`${deployment.origin}/direct/normale/index.m3u8`);
      const delta = await fetchWire(`${deployment.origin}/direct/normale/index.m3u8?_HLS_skip=YES`);
      const count = (WINDOW_HOURS * 3600) / SEGMENT_S;
      const edge = Math.floor(Date.now() / (SEGMENT_S * 1000));
      const segments = Array.from({ length: count }, (_, n) => ({
        sequence: edge - count + n,
        start: (edge - count + n) * SEGMENT_S * 1000,
        duration: SEGMENT_S,
        bytes: 0,
        epoch: 0,
      }));
      const sizes = (text) => ({ bytes: Buffer.byteLength(text), gzipBytes: gzipSync(text, { level: 1 }).length });
      const fullWindow = sizes(mediaPlaylist(segments, SEGMENT_S));
      const deltaWindow = sizes(mediaPlaylist(segments, SEGMENT_S, { delta: true }));
      const pollsPerMinute = 60 / SEGMENT_S;
      const perMinute = (size) => ({ bytes: size.bytes * pollsPerMinute, gzipBytes: size.gzipBytes * pollsPerMinute });
      report.playlist = {
        pollsPerMinute,
        recorded: {
          segments: full.body.split('\n').filter((line) => /^\d+\.mp3$/.test(line)).length,
          fullWire: full.wire,
          deltaWire: delta.wire,
          deltaSkips: /#EXT-X-SKIP/.test(delta.body),
        },
        polled: {
          polls: polls.count,
          fullBytesPerMinute: polls.count === 0 ? null : Math.round((polls.full / polls.count) * pollsPerMinute),
          deltaBytesPerMinute: polls.count === 0 ? null : Math.round((polls.delta / polls.count) * pollsPerMinute),
        },
        window: {
          hours: WINDOW_HOURS,
          segments: count,
          full: { ...fullWindow, perMinute: perMinute(fullWindow) },
          delta: { ...deltaWindow, perMinute: perMinute(deltaWindow) },
        },
      };
      console.log(report.playlist);
    }
  } finally {
    await deployment.close();
    rmSync(snapshots, { recursive: true, force: true });
  }
}

try {
  await measure('sans enregistrement', '0');
  await measure('en enregistrant', String(WINDOW_HOURS));
} finally {
  await Promise.all(sources.map((source) => source.close()));
  await icecast.stop();
}

const off = report.runs['sans enregistrement'];
const on = report.runs['en enregistrant'];
report.recorder = {
  cpuPercentOfACore: Math.round((on.treeCpuPercent - off.treeCpuPercent) * 10) / 10,
  rssMb: Math.round((on.serverRssMb - off.serverRssMb) * 10) / 10,
  rssAtStartMb: Math.round((on.serverRssAtStartMb - off.serverRssAtStartMb) * 10) / 10,
  liveHeapMb:
    on.liveHeapMb === null || off.liveHeapMb === null ? null : Math.round((on.liveHeapMb - off.liveHeapMb) * 10) / 10,
};
const p = report.playlist;
const lines = [
  `# The live's timeline (${report.date.slice(0, 10)}, ${report.machine})`,
  '',
  `\`node --import ./server/tsx.mjs bench/timeshift.mjs --seconds=${String(SECONDS)} --segment=${String(SEGMENT_S)}\`: Debian's icecast2 fed the demo's two mounts (128 and 48 kb/s) in real time; one instance of the built server with Redis and nginx (server/deploy/harness.ts), ${String(WARM_UP_S)} s after its start, measured ${String(SECONDS)} s, once with LIVE_TIMESHIFT_HOURS=0 and once recording both mounts (${String(WINDOW_HOURS)} h, ${String(SEGMENT_S)} s segments).`,
  '',
  "| run | CPU, server (% of a core) | CPU, with its processes | RSS at the window's start (MB) | RSS, mean over the window | RSS at its end | RSS max | heap kept (after a full GC) |",
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...Object.entries(report.runs).map(
    ([label, r]) =>
      `| ${label} | ${String(r.serverCpuPercent)} | ${String(r.treeCpuPercent)} | ${String(r.serverRssAtStartMb)} | ${String(r.serverRssMb)} | ${String(r.serverRssAtEndMb)} | ${String(r.serverRssMaxMb)} | ${String(r.liveHeapMb)} |`,
  ),
  '',
  `Recording costs **${String(report.recorder.cpuPercentOfACore)} % of a core** (goal: under 3 %). Memory (goal: under 30 MB): **${String(report.recorder.rssAtStartMb)} MB** of resident memory at the same age (${String(WARM_UP_S)} s after the start), **${String(report.recorder.liveHeapMb)} MB** of heap kept after a full collection; over the whole window the means differ by ${String(report.recorder.rssMb)} MB, because V8 gives back the heap of a process that allocates nothing for a while (its memory reducer: the server at rest gave back ${String(Math.round((off.serverRssAtStartMb - off.serverRssAtEndMb) * 10) / 10)} MB during the window) and never of one that reads a stream, whatever little it keeps: that difference is garbage not yet returned, not the recorder's.`,
  '',
  '| rendition | bit rate | disk an hour (measured) | at its nominal bit rate |',
  '| --- | --- | --- | --- |',
  ...report.disk.map(
    (d) =>
      `| ${d.rendition} | ${String(d.bitrate)} kb/s | ${String(d.mbPerHour)} MB | ${String(d.nominalMbPerHour)} MB |`,
  ),
  '',
  `Playlist of the normal rendition, a listener polling it once a segment (${String(p?.pollsPerMinute)} times a minute, as hls.js does), as nginx sends it (gzip, level 1):`,
  '',
  '| playlist | bytes | gzip | a minute | a minute, gzip |',
  '| --- | --- | --- | --- | --- |',
  `| full, ${String(WINDOW_HOURS)} h window (${String(p?.window.segments)} segments) | ${String(p?.window.full.bytes)} | ${String(p?.window.full.gzipBytes)} | ${String(p?.window.full.perMinute.bytes)} | ${String(p?.window.full.perMinute.gzipBytes)} |`,
  `| delta (?_HLS_skip=YES), same window | ${String(p?.window.delta.bytes)} | ${String(p?.window.delta.gzipBytes)} | ${String(p?.window.delta.perMinute.bytes)} | ${String(p?.window.delta.perMinute.gzipBytes)} |`,
  '',
  `Both written by the recorder's own \`mediaPlaylist\` for a full window. Polled through nginx during the run (${String(p?.polled.polls)} polls, the window then ${String(p?.recorded.segments)} segments${p?.recorded.deltaSkips === true ? ', the delta skipping' : ', too short for the delta to skip'}): full ${String(p?.polled.fullBytesPerMinute)} bytes a minute on the wire, delta ${String(p?.polled.deltaBytesPerMinute)}.`,
  '',
];
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'timeshift.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, 'timeshift.md'), lines.join('\n'));
console.log(lines.join('\n'));
