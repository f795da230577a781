// « Me prévenir » measured on the built server (docs/push.md): a programme served on the loopback,
// subscriptions in the server's push.json, and the fake push service of the tests (it checks each
// request's VAPID token and decrypts it as a browser would), in this process.
//
// 1. Latency: 100 starts of shows (50 residences, two each, a second apart), one follower each:
//    from each start to the push service's request, p50 and p95.
// 2. 10,000 followers of one residence: from the start to the last request, and the server's CPU
//    time (/proc/<pid>/stat) and resident memory (VmRSS, sampled) over that time.
//
// Writes bench/results/push.json and push.md. `node bench/push.mjs` after `npm run build`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { startServer } from './lib/browser.mjs';
import { arg } from './lib/cli.mjs';
import { cpuMs, percentile } from './lib/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const load = (path) => tsImport(join(root, path), import.meta.url);
const { startFakePushService } = await load('server/src/push/testing/fake-push-service.ts');
const { startFakeServer } = await load('shared/src/testing/fakeServer.ts');
const followers = Number(arg('followers') ?? 10_000);
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
  const server = await startServer(root, port, {
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
{
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
{
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

const out = join(root, 'bench', 'results');
writeFileSync(join(out, 'push.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(
  join(out, 'push.md'),
  [
    '# « Me prévenir »: `node bench/push.mjs`',
    '',
    `- From a show's start to the push service's request, over ${String(results.latency.starts)} starts: p50 ${String(results.latency.p50Ms)} ms, p95 ${String(results.latency.p95Ms)} ms (max ${String(results.latency.maxMs)} ms).`,
    `- ${String(results.followers.followers)} followers of one show: the last request ${String(results.followers.fromStartToLastMs)} ms after the start; the server's CPU ${String(results.followers.serverCpuMs)} ms over that time; its resident memory ${String(results.followers.serverRssBeforeMb)} MB two seconds before the start, ${String(results.followers.serverRssPeakMb)} MB at most while sending (sampled every 50 ms); at most ${String(results.followers.maxInFlight)} requests in flight.`,
    '',
  ].join('\n'),
);
process.exit(0);
