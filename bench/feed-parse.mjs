// Does digesting a large feed hold up other requests? (issue 11, item 9). Not a test. Serves a
// generated ~10 MB SoundCloud-like feed from a loopback upstream, starts the real server on it
// (FEED_TTL_S=1), and measures /healthz twice: idle, then while the server fetches and digests the
// feed again and again (a client asks /api/podcasts every 100 ms). The probe is open-loop: one
// /healthz every 5 ms, timed from when it was due, so a blocked event loop shows in every request
// that waited (a closed-loop load tester would send nothing while blocked, and hide it). Writes
// bench/results/feed-parse.md and bench/results/feed-parse.json.
//   node bench/feed-parse.mjs [--duration=10] [--label=après]
import { Agent, createServer as createHttpServer, get } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/browser.mjs';
import { arg, freePort } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const DURATION_S = Number(arg('duration', '10'));
const LABEL = arg('label', '');
const TARGET_BYTES = 10 * 1000 * 1000;

/** A feed shaped like SoundCloud's (see the fake upstream feeds of the server tests), ~10 MB. */
function bigFeed() {
  const items = [];
  let size = 0;
  for (let id = 1; size < TARGET_BYTES; id += 1) {
    const item = `<item>
  <guid isPermaLink="false">tag:soundcloud,2010:tracks/${String(id)}</guid>
  <title>Artiste ${String(id % 97)} - Émission n°${String(id)} &amp; invités</title>
  <pubDate>${new Date(Date.UTC(2026, 2, 4) - id * 3_600_000).toUTCString()}</pubDate>
  <link>https://soundcloud.com/collective/show-${String(id)}</link>
  <itunes:duration>02:26:06</itunes:duration>
  <itunes:author>Collectif</itunes:author>
  <description>Deux heures de dub, de basse et de bruit. It&#8217;s ${'une nuit entière au studio, '.repeat(24)}</description>
  <enclosure type="audio/mpeg" length="140234567" url="https://feeds.soundcloud.com/stream/${String(id)}-collective-show.mp3"/>
  <itunes:image href="https://i1.sndcdn.com/artworks-${String(id)}-t3000x3000.jpg"/>
</item>
`;
    items.push(item);
    size += Buffer.byteLength(item);
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>Collectif</title>
${items.join('')}</channel>
</rss>
`;
  return { body: Buffer.from(xml), items: items.length };
}

const feed = bigFeed();
let feedRequests = 0;
const upstream = createHttpServer((_req, res) => {
  feedRequests += 1;
  res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8', 'content-length': feed.body.length });
  res.end(feed.body);
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const feedUrl = `http://127.0.0.1:${String(upstream.address().port)}/sounds.rss`;

const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const PROBE_EVERY_MS = 5;

/** One /healthz every 5 ms for the duration, each timed from when it was due. */
async function probe(base) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const latencies = [];
  let errors = 0;
  const pending = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < DURATION_S * 1000; i += 1) {
    const due = start + i * PROBE_EVERY_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      new Promise((resolve) => {
        get(`${base}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - due);
            else errors += 1;
            resolve();
          });
        }).on('error', () => {
          errors += 1;
          resolve();
        });
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    requests: latencies.length,
    latencyP50Ms: at(0.5),
    latencyP99Ms: at(0.99),
    latencyMaxMs: round(latencies[latencies.length - 1] ?? 0),
    over100Ms: latencies.filter((ms) => ms > 100).length,
    errors,
  };
}

const port = await freePort();
const base = `http://127.0.0.1:${String(port)}`;
const server = await startServer(root, port, {
  SOUNDCLOUD_RSS_URL: feedUrl,
  FEED_TTL_S: '1',
  UPSTREAM_TIMEOUT_MS: '60000',
  UPSTREAM_MAX_BYTES: String(32 * 1024 * 1024),
});
const report = {
  date: new Date().toISOString(),
  label: LABEL,
  machine: `${String(cpus().length)} cœurs, ${cpus()[0]?.model ?? ''}`.trim(),
  feed: { bytes: feed.body.length, items: feed.items },
  durationS: DURATION_S,
};
try {
  let started = performance.now();
  const first = await fetch(`${base}/api/podcasts?limit=1`);
  if (!first.ok) throw new Error(`/api/podcasts : HTTP ${String(first.status)}`);
  await first.arrayBuffer();
  report.firstDigestMs = round(performance.now() - started, 0);
  console.log('▶ /healthz, idle');
  report.idle = await probe(base);
  console.log('▶ /healthz while the feed is digested again and again');
  let stop = false;
  const before = feedRequests;
  const driver = (async () => {
    while (!stop) {
      await fetch(`${base}/api/podcasts?limit=1`).then((res) => res.arrayBuffer());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  started = performance.now();
  report.digesting = await probe(base);
  stop = true;
  await driver;
  report.digests = feedRequests - before;
  report.digestingS = round((performance.now() - started) / 1000);
} finally {
  server.kill();
  upstream.close();
}

const row = (name, f) =>
  `| ${name} | ${String(f.requests)} | ${String(f.latencyP50Ms)} | ${String(f.latencyP99Ms)} | ${String(f.latencyMaxMs)} | ${String(f.over100Ms)} | ${String(f.errors)} |`;
const lines = [
  `# Feed digestion and other requests (${report.date.slice(0, 10)}, ${report.machine})${LABEL === '' ? '' : ` — ${LABEL}`}`,
  '',
  `Feed of ${String(report.feed.items)} items, ${String(round(report.feed.bytes / 1e6, 2))} MB, fetched and digested ${String(report.digests)} times in ${String(report.digestingS)} s (first digest, fetch included: ${String(report.firstDigestMs)} ms). /healthz probed every ${String(PROBE_EVERY_MS)} ms for ${String(DURATION_S)} s, latency from when each request was due.`,
  '',
  '| /healthz | requests | p50 ms | p99 ms | max ms | over 100 ms | errors |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  row('idle', report.idle),
  row('while the feed is digested', report.digesting),
  '',
];
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'feed-parse.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(results, 'feed-parse.md'), lines.join('\n'));
console.log(lines.join('\n'));
