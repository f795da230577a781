// « Me prévenir » measured on the built server (docs/push.md): a programme served on the loopback,
// subscriptions in the server's push.json, and the fake push service of the tests (it checks each
// request's VAPID token and decrypts it as a browser would), in this process.
//
// 1. Latency: 100 starts of shows (50 residences, two each, a second apart), one follower each:
//    from each start to the push service's request, p50 and p95.
// 2. 10,000 followers of one residence: from the start to the last request, and the server's CPU
//    time (/proc/<pid>/stat) and resident memory (VmRSS, sampled) over that time.
//
// 3. The store at its bound (docs/push.md, « Bounds »): push.json holding the largest subscriptions
//    the schema admits (an endpoint of 1,024 characters, 50 residences), the review's 50,000 (the
//    total of the wave before) and as many as PUSH_STORE_MB's default holds; the built server started
//    on each: whether it falls, its start to /healthz, its memory (Pss) once up.
//
// Writes bench/results/push.json and push.md. `node bench/push.mjs` after `npm run build`
// (`--phases=latency,followers,stores` to choose, `--root=DIR` to start another checkout's built server).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { startServer } from './lib/browser.mjs';
import { arg } from './lib/cli.mjs';
import { cpuMs, percentile } from './lib/measure.mjs';
import { startWithStore } from './lib/full-store.mjs';
import { createECDH, randomBytes } from 'node:crypto';

const root = fileURLToPath(new URL('..', import.meta.url));
const load = (path) => tsImport(join(root, path), import.meta.url);
const { startFakePushService } = await load('server/src/push/testing/fake-push-service.ts');
const { startFakeServer } = await load('shared/src/testing/fakeServer.ts');
const followers = Number(arg('followers') ?? 10_000);
const phases = arg('phases')?.split(',') ?? null;
const serverRoot = arg('root') ?? root;
const port = Number(arg('port') ?? 8341);

const residences = JSON.parse(readFileSync(join(root, 'shared', 'content', 'residences.json'), 'utf8'));
const stamp = (at) =>
  new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const calendarOf = (events) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Bench//Programme//FR',
    ...events.flatMap((event, i) => [
      'BEGIN:VEVENT',
      `UID:bench-${String(i)}@collectif`,
      `DTSTAMP:${stamp(Date.now())}`,
      `DTSTART:${stamp(event.start)}`,
      `DTEND:${stamp(event.start + 600_000)}`,
      `SUMMARY:${event.residence.artist} · ${event.residence.show}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

const rss = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'))[1]) / 1024;

/** One run of the built server with this programme and these subscriptions. */
async function run(push, events, subscriptions) {
  const calendar = await startFakeServer({});
  calendar.on('/programme.ics', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(calendarOf(events));
  });
  const dir = mkdtempSync(join(tmpdir(), 'bench-prevenir-'));
  const at = Date.now();
  writeFileSync(
    join(dir, 'push.json'),
    JSON.stringify({
      subscriptions: subscriptions.map(({ subscription, residence }) => ({
        ...subscription,
        residences: [{ id: residence, live: true, replay: false }],
        at,
      })),
      sent: {},
    }),
  );
  const ca = join(dir, 'ca.pem');
  await push.writeCa(ca);
  const server = await startServer(serverRoot, port, {
    CONTENT_DIR: dir,
    SCHEDULE_ICS_URLS: `${calendar.origin}/programme.ics`,
    PUSH_SERVICES: push.host,
    NODE_EXTRA_CA_CERTS: ca,
    LIVE_TIMESHIFT_HOURS: '0',
  });
  return {
    pid: server.pid,
    async close() {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      await calendar.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function until(condition, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('délai dépassé');
    await delay(20);
  }
}

const push = await startFakePushService();
const results = {};

// 1. Latency over 100 starts.
if (phases === null || phases.includes('latency')) {
  // 50 residences whose artist is one name (a title « A / B · … » may name either: docs/schedule.md).
  const chosen = residences.filter((residence) => !residence.artist.includes('/')).slice(0, 50);
  // Whole seconds: the calendar's times have no milliseconds.
  const first = Math.ceil((Date.now() + 20_000) / 1000) * 1000;
  const events = Array.from({ length: 100 }, (_, i) => ({ residence: chosen[i % 50], start: first + i * 1000 }));
  const subscriptions = chosen.map((residence) => ({ subscription: push.subscription(), residence: residence.id }));
  const byId = new Map(subscriptions.map(({ subscription }, i) => [subscription.endpoint.split('/').pop(), chosen[i]]));
  const before = push.received.length;
  const server = await run(push, events, subscriptions);
  await until(() => push.received.length - before >= 100, 180_000);
  const received = push.received.slice(before);
  // Each residence's two starts, in order: its first message answers its first start.
  const seen = new Map();
  const latencies = received.map((message) => {
    const residence = byId.get(message.id);
    const nth = seen.get(residence.id) ?? 0;
    seen.set(residence.id, nth + 1);
    const start = events.filter((event) => event.residence.id === residence.id)[nth].start;
    return message.at - start;
  });
  await server.close();
  results.latency = {
    starts: latencies.length,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    maxMs: Math.max(...latencies),
    refused: push.refused.length,
  };
  console.log('latence', results.latency);
}

// 2. Many followers of one show.
if (phases === null || phases.includes('followers')) {
  const residence = residences.find((each) => each.id === 'axonberg');
  const start = Math.ceil((Date.now() + 25_000) / 1000) * 1000;
  const made = Date.now();
  const subscriptions = Array.from({ length: followers }, () => ({
    subscription: push.subscription(),
    residence: 'axonberg',
  }));
  console.log(`${String(followers)} abonnements faits en ${String(Date.now() - made)} ms`);
  const before = push.received.length;
  const server = await run(push, [{ residence, start }], subscriptions);
  await until(() => Date.now() >= start - 2_000, 60_000);
  const cpuBefore = cpuMs(server.pid);
  const rssBefore = rss(server.pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rss(server.pid));
  }, 50);
  await until(() => push.received.length - before >= followers, 600_000);
  clearInterval(sampler);
  const last = push.received.at(-1).at;
  const serverCpu = cpuMs(server.pid) - cpuBefore;
  await server.close();
  results.followers = {
    followers,
    received: push.received.length - before,
    fromStartToLastMs: last - start,
    serverCpuMs: serverCpu,
    serverRssBeforeMb: Math.round(rssBefore),
    serverRssPeakMb: Math.round(rssPeak),
    maxInFlight: push.maxInFlight,
    refused: push.refused.length,
  };
  console.log('abonnés', results.followers);
}
await push.close();

if (phases === null || phases.includes('stores')) {
  // The largest subscription the schema admits, `at` now; its cost as records.ts counts it.
  const p256dh = (() => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    return ecdh.getPublicKey().toString('base64url');
  })();
  const largest = (i) => ({
    endpoint: `https://fcm.googleapis.com/fcm/send/${String(i).padStart(9, '0')}${'e'.repeat(1024 - 45)}`,
    keys: { p256dh, auth: randomBytes(16).toString('base64url') },
    residences: Array.from({ length: 50 }, (_, r) => ({
      id: `${String(r).padStart(2, '0')}-${'r'.repeat(57)}`,
      live: true,
      replay: true,
    })),
    at: Date.now(),
  });
  const cost = 2 * JSON.stringify(largest(0)).length + 512;
  const atBound = Math.floor((40 * 1024 * 1024) / cost);
  results.stores = { recordCost: cost };
  for (const [name, count] of [
    ['review', 50_000],
    ['bound', atBound],
  ]) {
    const text = JSON.stringify({ subscriptions: Array.from({ length: count }, (_, i) => largest(i)), sent: {} });
    const outcome = await startWithStore(serverRoot, port, { file: 'push.json', text });
    results.stores[name] = { subscriptions: count, fileMb: Math.round(text.length / 1e6), ...outcome };
    console.log('magasin', name, results.stores[name]);
  }
}

const out = join(root, 'bench', 'results');
const name = arg('out') ?? 'push';
const storeLine = (row) =>
  row.fell
    ? `fell at start (exit ${String(row.exit)}: ${row.reason ?? ''})`
    : `up in ${String(row.startMs)} ms, Pss ${String(row.memory?.pss)} MB (Rss ${String(row.memory?.rss)} MB)${row.setAside ? ', what did not fit set aside beside the file' : ''}`;
writeFileSync(join(out, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(
  join(out, `${name}.md`),
  [
    '# « Me prévenir »: `node bench/push.mjs`',
    '',
    ...(results.latency === undefined
      ? []
      : [
          `- From a show's start to the push service's request, over ${String(results.latency.starts)} starts: p50 ${String(results.latency.p50Ms)} ms, p95 ${String(results.latency.p95Ms)} ms (max ${String(results.latency.maxMs)} ms).`,
        ]),
    ...(results.followers === undefined
      ? []
      : [
          `- ${String(results.followers.followers)} followers of one show: the last request ${String(results.followers.fromStartToLastMs)} ms after the start; the server's CPU ${String(results.followers.serverCpuMs)} ms over that time; its resident memory ${String(results.followers.serverRssBeforeMb)} MB two seconds before the start, ${String(results.followers.serverRssPeakMb)} MB at most while sending (sampled every 50 ms); at most ${String(results.followers.maxInFlight)} requests in flight.`,
        ]),
    ...(results.stores === undefined
      ? []
      : [
          `- push.json of the largest subscriptions (${String(results.stores.recordCost)} bytes each by records.ts's cost): the review's ${String(results.stores.review.subscriptions)} (${String(results.stores.review.fileMb)} MB): ${storeLine(results.stores.review)}; the default bound's ${String(results.stores.bound.subscriptions)} (${String(results.stores.bound.fileMb)} MB): ${storeLine(results.stores.bound)}.`,
        ]),
    '',
  ].join('\n'),
);
process.exit(0);
