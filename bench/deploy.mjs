// The deployment's figures (issue 23), not a test: nginx (deploy/nginx.conf), Redis and instances of
// the built server on loopback, as the deployment tests start them (server/deploy/harness.ts).
//   1. cached pages a second through nginx, against the same page from one instance directly;
//   2. uncached pages a second (a crawler's distinct searches) through nginx, one and two instances;
//   3. upstream requests a minute (a fake AzuraCast), with one, two and four instances, with Redis
//      and without;
//   4. the longest gap in a listener's now-playing stream across a rolling restart.
// Writes bench/results/deploy.md and bench/results/deploy.json.
//   node --import ./server/tsx.mjs bench/deploy.mjs [--duration=5]   (npm run bench runs it)
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { followStream, startDeployment } from '../server/deploy/harness.ts';
import { startFakeUpstream } from '../server/src/api/testing/fake-upstream.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const durationArg = process.argv.find((a) => a.startsWith('--duration='));
const DURATION_S = durationArg === undefined ? 5 : Number(durationArg.split('=')[1]);
const POLL_WINDOW_S = 20;

const run = (options) => autocannon({ connections: 10, duration: DURATION_S, ...options });
const figures = (result) => ({
  requestsPerSecond: Math.round(result.requests.average),
  latencyP50Ms: result.latency.p50,
  latencyP99Ms: result.latency.p99,
  failed: result.errors + result.timeouts + result.non2xx,
});
/** A crawler: each request a search not asked before (a miss for every cache). */
const crawler = (url) => {
  let n = 0;
  return {
    url,
    requests: [{ setupRequest: (request) => ({ ...request, path: `/emissions?q=banc${String((n += 1))}` }) }],
  };
};

const upstream = await startFakeUpstream();
let song = 1;
upstream.on('/api/nowplaying', (_request, response) => {
  response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify([{ now_playing: { song: { artist: 'Axonberg', title: `Titre ${String(song)}` } } }]));
});
const env = { AZURACAST_NOWPLAYING_URL: `${upstream.url}/api/nowplaying`, NOWPLAYING_TTL_S: '1' };
const report = {
  date: new Date().toISOString(),
  machine: `${String(cpus().length)} cœurs, ${cpus()[0]?.model ?? ''}`.trim(),
  durationS: DURATION_S,
  pages: [],
  upstream: [],
  stream: null,
};

// 1 and 2: pages.
for (const count of [1, 2]) {
  const deployment = await startDeployment({ instances: count, env });
  try {
    const direct = `http://127.0.0.1:${String(deployment.instances[0].port)}`;
    if (count === 1) {
      for (const base of [direct, deployment.origin]) await fetch(`${base}/label`);
      console.log('▶ /label cached, one instance directly');
      report.pages.push({
        what: '/label, kept, one instance directly',
        ...figures(await run({ url: `${direct}/label` })),
      });
      console.log('▶ /label cached, through nginx');
      report.pages.push({
        what: '/label, kept, through nginx',
        ...figures(await run({ url: `${deployment.origin}/label` })),
      });
    }
    console.log(`▶ distinct searches through nginx, ${String(count)} instance(s)`);
    report.pages.push({
      what: `distinct searches (never kept), through nginx, ${String(count)} instance(s)`,
      ...figures(await run(crawler(deployment.origin))),
    });
  } finally {
    await deployment.close();
  }
}

// 3: upstream requests a minute, the API asked continually on every instance.
for (const shared of [true, false]) {
  for (const count of [1, 2, 4]) {
    if (!shared && count === 1) continue;
    const deployment = await startDeployment({ instances: count, redis: shared, nginx: false, env });
    try {
      const before = upstream.count('/api/nowplaying');
      console.log(`▶ upstream requests, ${String(count)} instance(s), ${shared ? 'Redis' : 'no Redis'}`);
      await Promise.all(
        deployment.instances.map((instance) =>
          autocannon({
            url: `http://127.0.0.1:${String(instance.port)}/api/nowplaying`,
            connections: 2,
            duration: POLL_WINDOW_S,
          }),
        ),
      );
      const perMinute = Math.round(((upstream.count('/api/nowplaying') - before) * 60) / POLL_WINDOW_S);
      report.upstream.push({ instances: count, redis: shared, perMinute });
    } finally {
      await deployment.close();
    }
  }
}

// 4: a listener through nginx while both instances restart in turn; the song changes every second.
{
  const deployment = await startDeployment({ instances: 2, env });
  try {
    const stream = followStream(`${deployment.origin}/api/nowplaying/events`);
    const changes = setInterval(() => {
      song += 1;
    }, 1000);
    await delay(3000);
    console.log('▶ rolling restart with a listener');
    for (const instance of deployment.instances) {
      await deployment.stop(instance);
      await delay(500);
      await deployment.start(instance);
      await delay(2000);
    }
    await delay(3000);
    clearInterval(changes);
    await stream.stop();
    const ids = stream.heard.map((event) => event.id);
    const gaps = stream.heard.slice(1).map((event, i) => event.at - stream.heard[i].at);
    const numbers = ids.map(Number);
    report.stream = {
      events: ids.length,
      longestGapMs: Math.max(...gaps),
      lost: numbers.slice(1).filter((n, i) => n !== numbers[i] + 1).length,
      repeated: ids.length - new Set(ids).size,
    };
  } finally {
    await deployment.close();
  }
}
await upstream.close();

const lines = [
  `# Deployment (${report.date.slice(0, 10)}, ${report.machine})`,
  '',
  `nginx (deploy/nginx.conf), Redis and the built server on loopback; autocannon, 10 connections, ${String(DURATION_S)} s. \`node --import ./server/tsx.mjs bench/deploy.mjs\`.`,
  '',
  '| pages | req/s | p50 ms | p99 ms | failed |',
  '| --- | --- | --- | --- | --- |',
  ...report.pages.map(
    (p) =>
      `| ${p.what} | ${String(p.requestsPerSecond)} | ${String(p.latencyP50Ms)} | ${String(p.latencyP99Ms)} | ${String(p.failed)} |`,
  ),
  '',
  `Upstream requests a minute (now-playing fresh 1 s; every instance asked continually for ${String(POLL_WINDOW_S)} s):`,
  '',
  '| instances | Redis | upstream requests / min |',
  '| --- | --- | --- |',
  ...report.upstream.map((u) => `| ${String(u.instances)} | ${u.redis ? 'yes' : 'no'} | ${String(u.perMinute)} |`),
  '',
  `Rolling restart of two instances, a listener through nginx, a new song every second: ${String(report.stream?.events)} events, longest gap ${String(report.stream?.longestGapMs)} ms, ${String(report.stream?.lost)} lost, ${String(report.stream?.repeated)} repeated.`,
  '',
];
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'deploy.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, 'deploy.md'), lines.join('\n'));
console.log(lines.join('\n'));
