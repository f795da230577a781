// The audience figures' costs (issue 63), not a test: the server's CPU per 1,000 beacons (a mix of
// live, replay and progress from 1,000 visitors, through Fastify's inject: no sockets), with the
// tally in memory and, when redis-server is installed, in Redis; the bytes a beacon costs a visitor
// (its request as Chromium sends a sendBeacon, and the server's answer read off a real socket); and
// the size on disk of a year of figures for a busy radio. Writes bench/results/figures.md and .json.
//   node bench/figures.mjs [--beacons=1000] [--runs=5]
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { arg } from './lib/cli.mjs';
import { startRedis } from './lib/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const BEACONS = Number(arg('beacons', '1000'));
const RUNS = Number(arg('runs', '5'));

process.env.TSX_TSCONFIG_PATH ??= join(root, 'server', 'tsconfig.json');
const load = (path) => tsImport(join(root, path), import.meta.url);
const { buildApi, listen, testConfig } = await load('server/src/api/testing/fixtures.ts');
const { connectShared } = await load('server/src/instances/shared-state.ts');
const { figuresFiles } = await load('server/src/figures/files.ts');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function beaconsCost(redisUrl) {
  // The same Redis for both stores: it persists nothing here (--save ''), so the site uses it for
  // the salted names too, as it uses the figures' Redis in a deployment.
  const config = testConfig(
    {},
    { FIGURES_BEACONS_PER_MIN: '1000', ...(redisUrl === null ? {} : { FIGURES_REDIS_URL: redisUrl }) },
  );
  const shared =
    redisUrl === null ? null : await connectShared(redisUrl, { warn: () => undefined }, { secret: 'x'.repeat(32) });
  const app = await buildApi({ config, shared });
  const slugs = (await app.sources.episodes.get()).value.episodes.slice(0, 40).map((episode) => episode.slug);
  const bodies = Array.from({ length: BEACONS }, (_, one) => {
    const episode = slugs[one % slugs.length];
    if (one % 5 < 2) return '{"kind":"live"}';
    if (one % 5 < 4) return JSON.stringify({ kind: 'replay', episode, second: (one * 37) % 3600 });
    return JSON.stringify({ kind: 'progress', episode, percent: [25, 50, 75, 100][one % 4] });
  });
  const send = (body, one, run) =>
    app.inject({
      method: 'POST',
      url: '/api/figures/beacon',
      remoteAddress: `10.${String(run)}.${String(Math.floor(one / 250))}.${String(one % 250)}`,
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': `Mozilla/5.0 bench/${String(one)}` },
      payload: body,
    });
  // Warm-up: the routes, the salt, the catalogue.
  for (let one = 0; one < 200; one += 1) await send(bodies[one], one, 250);
  const cpu = [];
  const wall = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = process.cpuUsage();
    const at = performance.now();
    for (let one = 0; one < BEACONS; one += 1) {
      const answer = await send(bodies[one], one, run);
      if (answer.statusCode !== 204) throw new Error(`beacon refused: ${String(answer.statusCode)} ${answer.body}`);
    }
    const used = process.cpuUsage(started);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - at);
  }
  await app.close();
  await shared?.close();
  return { cpuMs: median(cpu), wallMs: median(wall), runs: cpu };
}

/** The server's answer to a beacon, as bytes on the wire (HTTP/1.1). */
async function answerBytes() {
  const app = await buildApi({ config: testConfig() });
  const base = new URL(await listen(app));
  const body = '{"kind":"live"}';
  const request =
    `POST /api/figures/beacon HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: text/plain;charset=UTF-8\r\n` +
    `Content-Length: ${String(Buffer.byteLength(body))}\r\nConnection: close\r\n\r\n${body}`;
  const bytes = await new Promise((resolve, reject) => {
    let length = 0;
    const socket = connect(Number(base.port), base.hostname, () => socket.write(request));
    socket.on('data', (chunk) => {
      length += chunk.length;
    });
    socket.on('end', () => resolve(length));
    socket.on('error', reject);
  });
  await app.close();
  return bytes;
}

/** A sendBeacon's request as Chromium 131 sends it over HTTP/1.1 from a page of the site. */
function requestBytes(body) {
  const headers = [
    'POST /api/figures/beacon HTTP/1.1',
    'Host: radio.example.org',
    'Connection: keep-alive',
    `Content-Length: ${String(Buffer.byteLength(body))}`,
    'sec-ch-ua-platform: "Android"',
    'User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'sec-ch-ua: "Chromium";v="131", "Not_A Brand";v="24"',
    'Content-Type: text/plain;charset=UTF-8',
    'sec-ch-ua-mobile: ?1',
    'Accept: */*',
    'Origin: https://radio.example.org',
    'Sec-Fetch-Site: same-origin',
    'Sec-Fetch-Mode: no-cors',
    'Sec-Fetch-Dest: empty',
    'Referer: https://radio.example.org/emissions/axonberg-synapse-7',
    'Accept-Encoding: gzip, deflate, br, zstd',
    'Accept-Language: fr-FR,fr;q=0.9',
    'Cookie: XSRF-TOKEN=Gm3c5b2zYfQ8kP1uVd7sTn0aWx4yRh6L',
  ];
  return Buffer.byteLength(`${headers.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * A year of a busy radio: every hour sampled from four sources, 12 hours of slots a day by minute,
 * 150 episodes replayed a day with their milestones, 8 moments each, and the hours' plays.
 */
async function yearOnDisk() {
  const dir = mkdtempSync(join(tmpdir(), 'chiffres-annee-'));
  const files = figuresFiles(dir);
  const start = Date.UTC(2025, 0, 1);
  for (let day = 0; day < 365; day += 1) {
    const fields = { visitors: 1800, 'listeners:site': 900, 'listeners:embed': 120 };
    for (let hour = 0; hour < 24; hour += 1) {
      for (const source of ['azuracast', 'player', 'timeline', 'total']) {
        fields[`live:${source}:${String(hour)}:peak`] = 40 + hour;
        fields[`live:${source}:${String(hour)}:sum`] = 2100 + hour;
        fields[`live:${source}:${String(hour)}:n`] = 60;
      }
      fields[`plays:${String(hour)}`] = 30 + hour;
    }
    for (let slot = 0; slot < 6; slot += 1) {
      const residence = `residence-numero-${String(slot)}`;
      for (let minute = 0; minute < 120; minute += 1)
        fields[`slot:${residence}:${String(600 + slot * 120 + minute)}`] = 20 + minute;
      for (const source of ['azuracast', 'player', 'timeline', 'total']) fields[`slotsrc:${residence}:${source}`] = 90;
      fields[`show:${residence}:listeners`] = 140;
    }
    for (let episode = 0; episode < 150; episode += 1) {
      const slug = `residence-numero-${String(episode % 20)}-emission-${String(episode)}`;
      fields[`play:${slug}`] = 12;
      fields[`embed:${slug}`] = 3;
      for (const percent of [25, 50, 75, 100]) fields[`reach:${slug}:${String(percent)}`] = 10 - percent / 25;
      for (let moment = 0; moment < 8; moment += 1) fields[`moment:${slug}:${String(moment * 420)}`] = 5;
    }
    await files.write(new Date(start + day * 86_400_000).toISOString().slice(0, 10), fields);
  }
  let bytes = 0;
  let gzipped = 0;
  let count = 0;
  for (const year of readdirSync(dir)) {
    for (const file of readdirSync(join(dir, year))) {
      const path = join(dir, year, file);
      bytes += statSync(path).size;
      gzipped += gzipSync(await import('node:fs').then((fs) => fs.readFileSync(path))).length;
      count += 1;
    }
  }
  const fieldsPerDay = Object.keys(
    JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(dir, '2025', '2025-06-01.json'), 'utf8')))
      .fields,
  ).length;
  rmSync(dir, { recursive: true, force: true });
  return { files: count, bytes, gzipped, fieldsPerDay };
}

const memory = await beaconsCost(null);
const redis = await startRedis();
const withRedis = redis === null ? null : await beaconsCost(redis.url);
redis?.stop();
const answer = await answerBytes();
const bodies = {
  live: '{"kind":"live"}',
  replay: '{"kind":"replay","episode":"axonberg-synapse-7","second":754}',
  progress: '{"kind":"progress","episode":"axonberg-synapse-7","percent":50}',
};
const beacon = Object.fromEntries(
  Object.entries(bodies).map(([kind, body]) => [
    kind,
    { body: Buffer.byteLength(body), request: requestBytes(body), answer },
  ]),
);
const year = await yearOnDisk();

const machine = `${String(cpus().length)} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}`;
const report = {
  beacons: BEACONS,
  runs: RUNS,
  memory,
  redis: withRedis,
  beacon,
  year,
  machine,
  at: new Date().toISOString(),
};
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'figures.json'), `${JSON.stringify(report, null, 2)}\n`);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const lines = [
  '# Audience figures (issue 63)',
  '',
  `\`node bench/figures.mjs --beacons=${String(BEACONS)} --runs=${String(RUNS)}\`, ${report.at.slice(0, 10)}, ${machine} (shared).`,
  '',
  '## The server per 1,000 beacons',
  '',
  'Two in five live, two in five replays started, one in five milestones, from 1,000 visitors (each its address and user agent), through `inject` (no sockets): the route, the schema, the salted hash, the dedupe and the counts. Median of the runs.',
  '',
  '| tally | CPU | wall |',
  '| --- | --- | --- |',
  `| in memory | ${memory.cpuMs.toFixed(0)} ms | ${memory.wallMs.toFixed(0)} ms |`,
  withRedis === null
    ? '| Redis | (redis-server missing) | |'
    : `| Redis on loopback | ${withRedis.cpuMs.toFixed(0)} ms | ${withRedis.wallMs.toFixed(0)} ms |`,
  '',
  '## A beacon, for the visitor',
  '',
  'One request per beacon (`navigator.sendBeacon`), none before it (no preflight, no token). The request as Chromium sends it from a page of the site over HTTP/1.1 (headers written out in the script; over HTTP/2 they are compressed); the answer read off a real socket (204; the API alone, without the security headers of the whole site, which add a few hundred bytes).',
  '',
  '| beacon | body | request | answer |',
  '| --- | --- | --- | --- |',
  ...Object.entries(beacon).map(
    ([kind, row]) => `| ${kind} | ${String(row.body)} B | ${String(row.request)} B | ${String(row.answer)} B |`,
  ),
  '',
  `Live: one every 120 s while the live plays, 30 an hour: about ${kb(30 * (beacon.live.request + beacon.live.answer))} an hour. A replay: one at its start and four milestones.`,
  '',
  '## A year on disk',
  '',
  `A busy radio: four sources each hour, 12 hours of slots a day by minute, 150 episodes replayed a day with their milestones and 8 moments each: ${String(year.fieldsPerDay)} counts a day. 25 months keep about twice this.`,
  '',
  `| files | bytes | gzip (a backup's) |`,
  '| --- | --- | --- |',
  `| ${String(year.files)} | ${(year.bytes / 1024 / 1024).toFixed(1)} MiB | ${(year.gzipped / 1024 / 1024).toFixed(1)} MiB |`,
  '',
];
writeFileSync(join(results, 'figures.md'), lines.join('\n'));
console.log(lines.join('\n'));
process.exit(0);
