// The played artists' index when a tracklist is saved (issue 61), not a test: builds the demo feed
// with 5,000 podcasts, gives every one a tracklist of 20 rows drawn from a few thousand artists
// (the content's bound is 5,000 tracklists), then times what a save costs the first read after it:
// the catalogue made again with the new tracklists (its MiniSearch index is built later, on the
// first search) and the artists' index made from it, the releases, the residences and the merges.
// Writes bench/results/played-artists.md and .json.
//   node bench/played-artists.mjs [--episodes=5000] [--rows=20] [--artists=4000] [--runs=10]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { arg } from './lib/cli.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'bench', 'results');
const EPISODES = Number(arg('episodes', '5000'));
const ROWS = Number(arg('rows', '20'));
const ARTISTS = Number(arg('artists', '4000'));
const RUNS = Number(arg('runs', '10'));

process.env.TSX_TSCONFIG_PATH ??= join(root, 'server', 'tsconfig.json');
const load = (path) => tsImport(join(root, path), import.meta.url);
const { buildDemoFeed } = await load('server/src/api/demo/feed.ts');
const { loadResidences } = await load('server/src/schedule/demo-residences.ts');
const { DEMO_REPLAYS } = await load('server/src/api/demo/audio.ts');
const { feedData, parseFeedXml } = await load('server/src/api/upstream/rss.ts');
const { buildCatalogue } = await load('server/src/episodes/catalogue.ts');
const { buildPlayedArtists } = await load('server/src/played-artists/index.ts');
const { readApiConfig } = await load('server/src/api/env.ts');

const residences = loadResidences(readApiConfig({}).demo.residencesFile);
const residenceEntries = JSON.parse(readFileSync(join(root, 'shared/content/residences.json'), 'utf8'));
const releases = JSON.parse(readFileSync(join(root, 'server/content/releases.json'), 'utf8'));
// About 11 % of the demo's items are teasers under 10 MB (not podcasts): ask for enough items.
const feed = buildDemoFeed({
  residences,
  replays: DEMO_REPLAYS,
  anchor: new Date('2026-11-22T00:00:00Z'),
  count: Math.ceil(EPISODES / 0.885),
});
const parsed = parseFeedXml(feed.xml);
const podcasts = feedData(parsed.xml, parsed.items, true).podcasts.slice(0, EPISODES);
const slugs = buildCatalogue(podcasts, residences).episodes.map((episode) => episode.slug);

// Names with case and accent variants, a few artists played far more than the others.
const names = Array.from({ length: ARTISTS }, (_, i) => `Artiste Échantillon ${String(i)}`);
let seed = 61;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = () => names[Math.floor(random() ** 2 * ARTISTS)];
const tracklists = slugs.map((episode) => ({
  episode,
  tracks: Array.from({ length: ROWS }, (_, r) => {
    const name = pick();
    return { start: r * 180, artist: r % 3 === 0 ? name.toUpperCase() : name, title: `Titre ${String(r)}` };
  }),
}));
const merges = [{ into: 'artiste-echantillon-1', names: ['Artiste Échantillon 2', 'Artiste Échantillon 3'] }];

// Wall time, and this process's CPU time (user and system): on a shared machine the second is what
// the work costs, the first what a visitor waits.
const time = (run) => {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const value = run();
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: (used.user + used.system) / 1000, value };
};
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const saves = [];
const indexes = [];
const savesCpu = [];
const indexesCpu = [];
let index;
let catalogue;
for (let run = 0; run < RUNS; run += 1) {
  // A save: a new list of tracklists (a new object, as the store gives), so everything is made again.
  const saved = tracklists.map((entry) => ({ ...entry }));
  const whole = time(() => {
    catalogue = buildCatalogue(podcasts, residences, saved, `r${String(run)}`);
    return catalogue;
  });
  const alone = time(() =>
    buildPlayedArtists({
      episodes: catalogue.episodes,
      find: (slug) => catalogue.find(slug),
      tracklists: catalogue.tracklists,
      releases,
      residences: residenceEntries,
      merges,
    }),
  );
  index = alone.value;
  saves.push(whole.ms + alone.ms);
  indexes.push(alone.ms);
  savesCpu.push(whole.cpuMs + alone.cpuMs);
  indexesCpu.push(alone.cpuMs);
}
for (const list of [saves, indexes, savesCpu, indexesCpu]) list.sort((a, b) => a - b);
const page = time(() => JSON.stringify(index.page({ page: 3 })));
const one = time(() => JSON.stringify(index.find(index.page({}).items[0].slug)));

const summary = {
  date: new Date().toISOString(),
  machine: `${String(cpus().length)} cores, Node ${process.version}`,
  episodes: catalogue.episodes.length,
  tracklists: tracklists.length,
  rows: tracklists.length * ROWS,
  artists: index.size,
  runs: RUNS,
  saveP50Ms: Number(percentile(saves, 50).toFixed(1)),
  saveMaxMs: Number(saves.at(-1).toFixed(1)),
  indexP50Ms: Number(percentile(indexes, 50).toFixed(1)),
  indexMaxMs: Number(indexes.at(-1).toFixed(1)),
  saveCpuP50Ms: Number(percentile(savesCpu, 50).toFixed(1)),
  indexCpuP50Ms: Number(percentile(indexesCpu, 50).toFixed(1)),
  loadAverage: loadavg()[0],
  pageMs: Number(page.ms.toFixed(2)),
  artistMs: Number(one.ms.toFixed(2)),
};
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'played-artists.json'), `${JSON.stringify(summary, null, 2)}\n`);
const md = [
  `# The played artists' index after a tracklist's save (${String(summary.episodes)} episodes)`,
  '',
  `${summary.machine} (load average ${summary.loadAverage.toFixed(1)} at the end), ${summary.date}. ${String(summary.tracklists)} tracklists, ${String(summary.rows)} rows, ${String(summary.artists)} artists; ${String(RUNS)} saves.`,
  '',
  '| what | p50 (ms) | max (ms) | CPU p50 (ms) |',
  '| --- | ---: | ---: | ---: |',
  `| a save: the catalogue and the artists' index made again | ${String(summary.saveP50Ms)} | ${String(summary.saveMaxMs)} | ${String(summary.saveCpuP50Ms)} |`,
  `| the artists' index alone | ${String(summary.indexP50Ms)} | ${String(summary.indexMaxMs)} | ${String(summary.indexCpuP50Ms)} |`,
  '',
  `Then a page of GET /api/artists in ${String(summary.pageMs)} ms and one artist in ${String(summary.artistMs)} ms (with their JSON).`,
  '',
].join('\n');
writeFileSync(join(results, 'played-artists.md'), md);
console.log(md);
